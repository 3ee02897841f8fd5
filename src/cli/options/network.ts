// Retries, timeouts, the waiting budget, CAs and the request log: the flags of every command that
// calls the service. src/cli/network/client-settings.ts turns them into the client's options.
import type { Command } from 'commander';
import { formatDuration } from '../../shared/duration.js';
import { DEFAULT_MAX_WAIT_MS, MAX_CA_FILE_BYTES } from '../../shared/limits.js';
import { formatBytes } from '../../shared/read-limited.js';

export interface NetworkFlags {
  timeout?: string;
  retries?: string;
  maxWait?: string;
  caFile?: string;
  verbose?: boolean;
  quiet?: boolean;
}

export function addNetworkOptions(command: Command): Command {
  return command
    .option('--timeout <duration>', 'per attempt, covering connect, headers and body (env MKT_TIMEOUT)', undefined)
    .option('--retries <n>', 'retries after 429, 502, 503, 504 and connection errors (env MKT_RETRIES)')
    .option('--max-wait <duration>', `the most time this command spends waiting for retries and rate limits, in all (env MKT_MAX_WAIT; default ${formatDuration(DEFAULT_MAX_WAIT_MS)}, a whole rate window)`)
    .option('--ca-file <path>', `extra PEM CA certificates to trust, at most ${formatBytes(MAX_CA_FILE_BYTES)} (env MKT_CA_FILE)`)
    .option('-v, --verbose', 'print each request, response status, timing and rate-limit headers on stderr (secrets redacted; JSON lines under a JSON format)')
    .option('-q, --quiet', QUIET_HELP);
}

/**
 * What --quiet silences (output/progress.ts, and the confirmations of login and token), for every command
 * that takes it: the README's "Waiting for the quota" and Networks sections say the same.
 */
export const QUIET_HELP = 'silence the progress line, every wait announcement (also the waits over 2s otherwise announced in a pipe) and the confirmations of login and token; warnings and errors still print';
