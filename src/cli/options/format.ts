// The output formats of mkt quotes, and the one place that decides which applies: --format (or
// --json), then MKT_FORMAT, then the profile's `format` setting, then table on a terminal and tsv
// in a pipe.
import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import { commandOptions } from './command-options.js';
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

/** Formats a script reads as JSON: an error is then one JSON object on stderr too. */
const JSON_FORMATS: ReadonlySet<Format> = new Set(['json', 'ndjson']);

/**
 * Whether an error is written as JSON: it follows the effective output format of the command that
 * ran, however it was chosen (--json, --format json, -f json, MKT_FORMAT, the profile's setting). A
 * watch in a pipe streams NDJSON without being asked to, and its warnings on stderr are text: so are
 * its errors, unless JSON was chosen.
 */
export function errorsAsJson(deps: Deps | undefined, command: Command | undefined): boolean {
  if (command === undefined) return false;
  const flags = commandOptions<FormatFlags>(command);
  if (flags.json) return true;
  if (command.name() !== 'quotes' || deps === undefined) return false;
  try {
    return JSON_FORMATS.has(chooseFormat(deps, flags));
  } catch {
    return false;
  }
}
