// The version, inlined at build time (scripts/build.js); tests run the sources, where it is unset.
declare const MKT_VERSION: string | undefined;

export const VERSION: string = typeof MKT_VERSION === 'string' ? MKT_VERSION : '0.0.0-dev';

/** `mkt --version` or `mkt -V` alone: answered by src/cli/launch.ts before anything else loads. */
export function isVersionRequest(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V');
}
