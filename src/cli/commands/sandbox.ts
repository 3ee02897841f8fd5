// mkt sandbox: the reference Market Data Service on this machine. A thin wrapper over src/sandbox,
// which is imported only when this command runs (its start-up cost is not every command's).
// Contract: docs/sandbox.md; in CI: docs/ci.md.
import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { diagnosticsOf } from '../output/diagnostics.js';
import { UsageError } from '../errors/errors.js';
import { parseInteger, type IntegerRange } from '../../shared/integer.js';
import { isLoopback } from '../../shared/loopback.js';
import { printable } from '../../shared/text.js';

interface SandboxFlags {
  host: string;
  port: string;
  clients?: string;
  perMinute?: string;
  perHour?: string;
  perDay?: string;
  tokensPerMinute?: string;
  tokenTtl?: string;
  maxSymbols?: string;
  seed?: string;
  synthetic?: string;
  readyFile?: string;
  log?: boolean;
}

export function registerSandbox(program: Command, deps: Deps): void {
  program.command('sandbox')
    .description('run a local Market Data Service for demos, tests and CI (real tokens, scopes and rate limits)')
    .option('--host <host>', 'interface to listen on; anything but loopback exposes the demo credentials', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', '4010')
    .option('--clients <file>', 'JSON file of extra clients: [{"client_id", "client_secret", "orgs", "scopes", "profile"?}]')
    .option('--per-minute <n>', 'market data requests (every /v1/market route, together) per minute per client and organization (default 60; approved clients get twice this)')
    .option('--per-hour <n>', 'market data requests per hour per client and organization (default 5000)')
    .option('--per-day <n>', 'market data requests per day per client and organization (default 10000)')
    .option('--tokens-per-minute <n>', 'tokens issued per minute per client, both auth endpoints together (default 600)')
    .option('--token-ttl <seconds>', 'lifetime of issued tokens (default 3600)')
    .option('--max-symbols <n>', 'most symbols in one quotes request (default 100)')
    .option('--seed <n>', 'seed of the deterministic prices (default 1)')
    .option('--synthetic <n>', 'also quote N synthetic symbols SYN00001..SYNnnnnn (at most 99999)')
    .option('--ready-file <path>', 'once listening, write MKT_BASE_URL=<url> and MKT_SANDBOX_PID=<pid> to this file (atomically)')
    .option('--log', 'log one line per request on stderr: time, method, path, status, client, milliseconds, request id')
    .addHelpText('after', `
The first line written is the base URL alone. For scripts and CI, --ready-file is the reliable
signal (see docs/ci.md); GET /healthz answers 200 without credentials.
Built-in clients: demo / demo-secret (org_demo, market.read) and noscope / noscope-secret (org_demo,
no scopes). Stops on Ctrl-C or SIGTERM. The full contract is in docs/sandbox.md; the service's
OpenAPI description is served at /openapi.yaml and /openapi.json.

Examples:
  $ mkt sandbox                                            # on 127.0.0.1:4010 until Ctrl-C (long-running)
  $ mkt sandbox --port 0 --ready-file sandbox.env --log    # for CI: docs/ci.md (long-running)
  $ mkt sandbox --per-minute 1000000 --per-hour 1000000 --per-day 1000000 --synthetic 10000   # for load tests (long-running)
  $ mkt sandbox --clients ci-clients.json --token-ttl 60   # your own clients, tokens for a minute (long-running)`)
    .action(async (flags: SandboxFlags) => {
      await runSandbox(deps, flags);
    });
}

async function runSandbox(deps: Deps, flags: SandboxFlags): Promise<void> {
  const host = flags.host.trim();
  if (host === '') throw new UsageError('--host must not be empty', 'use --host 127.0.0.1');
  if (flags.readyFile !== undefined && flags.readyFile.trim() === '') throw new UsageError('--ready-file must not be empty', 'give a path, e.g. --ready-file sandbox.env');
  const port = parseInteger(flags.port, '--port', { max: 65_535 });
  const limits = {
    perMinute: optionalInteger(flags.perMinute, '--per-minute', { min: 1 }),
    perHour: optionalInteger(flags.perHour, '--per-hour', { min: 1 }),
    perDay: optionalInteger(flags.perDay, '--per-day', { min: 1 }),
    tokensPerMinute: optionalInteger(flags.tokensPerMinute, '--tokens-per-minute', { min: 1 }),
  };
  const tokenTtlSeconds = optionalInteger(flags.tokenTtl, '--token-ttl', { min: 1, max: 10 * 365 * 86_400 });
  const maxSymbols = optionalInteger(flags.maxSymbols, '--max-symbols', { min: 1, max: 100_000 });
  const seed = optionalInteger(flags.seed, '--seed', { min: Number.MIN_SAFE_INTEGER });
  const synthetic = optionalInteger(flags.synthetic, '--synthetic', { min: 0, max: 99_999 });

  const { startSandbox, loadClientsFile, formatLogLine, SandboxConfigError, DEMO } = await import('../../sandbox/index.js');
  const usage = (error: unknown, hint?: string): never => {
    if (error instanceof SandboxConfigError) throw new UsageError(error.message, error.hint ?? hint);
    throw error;
  };
  const clients = flags.clients === undefined ? [] : await loadClientsFile(flags.clients, deps.signal)
    .catch((error: unknown) => usage(error, 'see `mkt sandbox --help` and docs/sandbox.md for the clients file format'));
  const { stderr } = deps.io;
  const exposed = !isLoopback(host);
  // The host as typed, which may hold anything: made safe before it reaches the terminal.
  const shownHost = printable(host, { max: 100 });
  if (exposed) {
    diagnosticsOf(deps).warn({
      code: 'sandbox_exposed', message: `--host ${shownHost} is not a loopback address: other machines that can reach this one can use the sandbox and its demo credentials`,
      hint: 'use --host 127.0.0.1 to keep it to this machine',
    });
  }
  let sandbox;
  try {
    sandbox = await startSandbox({
      host,
      port,
      clients,
      limits,
      tokenTtlSeconds,
      maxSymbols,
      seed,
      synthetic,
      readyFile: flags.readyFile,
      onError: (error) => stderr.write(`sandbox: internal error: ${error instanceof Error ? error.message : String(error)}\n`),
      onRequest: flags.log === true ? (entry) => stderr.write(formatLogLine(entry)) : undefined,
    });
  } catch (error) {
    throw listenError(error, host, port) ?? usage(error);
  }

  const { url } = sandbox;
  deps.io.stdout.write(`${url}
Market Data Service sandbox, listening on ${exposed ? `${shownHost} port ${sandbox.port} (reachable from other machines); from this one, ${url}` : url} (Ctrl-C to stop)
Demo client:  client_id ${DEMO.clientId}, client_secret ${DEMO.clientSecret}, organization ${DEMO.org}
Demo API key: ${DEMO.apiKey}

Try it:
  export MKT_BASE_URL=${url}
  MKT_API_KEY=${DEMO.apiKey} mkt login --org ${DEMO.org}
  mkt quotes EURUSD AAPL
`);
  await new Promise<void>((resolve) => {
    if (deps.signal.aborted) return resolve();
    deps.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  stderr.write('sandbox: stopping\n');
  await sandbox.close();
}

function optionalInteger(text: string | undefined, name: string, range: IntegerRange): number | undefined {
  return text === undefined ? undefined : parseInteger(text, name, range);
}

/** A UsageError for the listen failures a user can fix with a flag, or undefined. */
function listenError(error: unknown, typedHost: string, port: number): UsageError | undefined {
  const host = printable(typedHost, { max: 100 });
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  switch (code) {
    case 'EADDRINUSE':
      return new UsageError(`port ${port} on ${host} is already in use`, 'pick another port with --port <n>, or --port 0 for a free one');
    case 'EACCES':
      return new UsageError(`no permission to listen on port ${port}`, 'use a port above 1023, or --port 0 for a free one');
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new UsageError(`cannot listen on host ${host}: it is not an address of this machine`, 'use --host 127.0.0.1');
    case 'EINVAL':
      // The resolver refuses what cannot be a host name at all: a control or bidi character, a
      // label over 63 characters, a name over 253.
      return syscall === 'getaddrinfo'
        ? new UsageError(`cannot listen on host ${host}: it is not a valid host name${printable(typedHost) === typedHost ? '' : ' (it holds characters that cannot be shown, left out here)'}`, 'use --host 127.0.0.1, or an address of this machine')
        : undefined;
    default:
      return undefined;
  }
}
