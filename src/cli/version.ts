// The version, inlined at build time (scripts/build.js); tests run the sources, where it is unset.
declare const MKT_VERSION: string | undefined;

export const VERSION: string = typeof MKT_VERSION === 'string' ? MKT_VERSION : '0.0.0-dev';
