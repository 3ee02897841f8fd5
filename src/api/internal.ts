// The CLI's one way into the library besides index.ts (eslint.config.js holds src/cli to these two):
// what mkt injects that a program does not (a clock, waits and jitter its tests replace), the undici
// parts it builds its dispatcher from, the wording helpers its messages share with the library's,
// and the currency codes the library takes, which completion offers. Not part of the library: it may
// change with any release.
import { createClient, type Client, type ClientOptions } from './client.js';
import { seams, type Seam } from './seam.js';

export type { Seam };

/** createClient with the seam: the clock, waits and jitter of mkt's Deps. */
export function createClientWith(options: ClientOptions, seam: Seam): Client {
  const own = { ...options };
  seams.set(own, seam);
  return createClient(own);
}

export { currencyCodes, currencyUnit } from './currencies.js';
export { displayUrl } from './response.js';
export { describeStatus } from './status-text.js';
export { loadDispatcherParts } from './undici.js';
export { POSITION_FIELDS, type PositionField } from './position-fields.js';
export { placeOfProblem } from './positions-error.js';
