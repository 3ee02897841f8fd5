// The output formats of mkt quotes, and the one place that decides which applies: --format (or
// --json), then MKT_FORMAT, then the profile's `format` setting, then table on a terminal and tsv
// in a pipe.
import type { Deps } from '../deps.js';
import { UsageError } from '../errors.js';
import { resolveProfile } from '../settings.js';

export const FORMATS = ['table', 'tsv', 'json', 'ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value);
}

export interface FormatFlags {
  format?: Format;
  json?: boolean;
  profile?: string;
}

export function chooseFormat(deps: Deps, flags: FormatFlags): Format {
  if (flags.json) return 'json';
  if (flags.format) return flags.format;
  const fromEnv = deps.env.MKT_FORMAT;
  if (fromEnv) {
    if (!isFormat(fromEnv)) throw new UsageError(`MKT_FORMAT must be one of ${FORMATS.join(', ')}, not "${fromEnv.slice(0, 40)}"`);
    return fromEnv;
  }
  const stored = deps.config.profile(resolveProfile(deps, flags.profile).value)?.format;
  if (stored && isFormat(stored)) return stored;
  return deps.io.stdoutIsTTY ? 'table' : 'tsv';
}
