// The CLI's one way into the library besides index.ts (eslint.config.js holds src/cli to these two):
// what mkt injects that a program does not (a clock, waits and jitter its tests replace), the undici
// parts it builds its dispatcher from, and what its error hints read. Not part of the library: it
// may change with any release.
export { createClientWith, type ClientSeam } from './client.js';
export { statedBatchLimit } from './quotes.js';
export { loadDispatcherParts } from './undici.js';
