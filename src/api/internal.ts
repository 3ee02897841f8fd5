// The CLI's one way into the library besides index.ts (eslint.config.js holds src/cli to these two):
// what mkt injects that a program does not (a clock, waits and jitter its tests replace), the undici
// parts it builds its dispatcher from, and what its error hints read. Not part of the library: it
// may change with any release.
import { createClient, type Client, type ClientOptions } from './client.js';
import { SEAM, type ClientSeam, type WithSeam } from './seam.js';

export type { ClientSeam };

/** createClient with the seam: the clock, waits and jitter of mkt's Deps. */
export function createClientWith(options: ClientOptions, seam: ClientSeam): Client {
  const withSeam: WithSeam<ClientOptions> = { ...options, [SEAM]: seam };
  return createClient(withSeam);
}

export { statedBatchLimit } from './quotes.js';
export { loadDispatcherParts } from './undici.js';
