// The Market Data Service sandbox as a library: `mkt sandbox` is a thin wrapper over startSandbox,
// and tests start it in-process on port 0 with an injected clock. Contract: docs/sandbox.md.
export { startSandbox, DEFAULT_HOST, DEFAULT_PORT, type Sandbox, type StartSandboxOptions } from './server.js';
export { createSandboxHandler, MAX_QUERY_BYTES } from './handler.js';
export { loadClientsFile, DEMO, BUILT_IN_CLIENTS, MAX_CLIENTS_FILE_BYTES, type SandboxClient } from './principals.js';
export { SandboxConfigError } from './config-error.js';
export { DEFAULT_LIMITS, MAX_SYNTHETIC, type RequestLogEntry, type SandboxLimits, type SandboxOptions } from './options.js';
export { INSTRUMENTS, VENUES, syntheticSymbol, type Instrument } from './catalogue.js';
export { MAX_BODY_BYTES } from './request-body.js';
export { MAX_SYMBOL_LENGTH } from '../shared/patterns.js';
export { formatLogLine } from './request-log.js';
