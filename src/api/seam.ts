// What mkt hands the client beside the public options: the clock, the waits and the jitter, so that
// its tests replace them rather than wait. It rides on the options under a symbol that only
// src/api/internal.ts passes on, so the public createClient has one signature and no test seam in
// its types. Not part of the library.
import type { TransportOptions } from './transport.js';

export type ClientSeam = Pick<TransportOptions, 'now' | 'sleep' | 'random'>;

export const SEAM: unique symbol = Symbol('clientSeam');

/** Options that may carry the seam. */
export type WithSeam<T> = T & { [SEAM]?: ClientSeam };
