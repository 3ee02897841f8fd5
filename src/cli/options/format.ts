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
 * Whether an error is written as JSON: it follows the command's effective output format, however it
 * was chosen (--json, --format json, -f json, MKT_FORMAT, the profile's setting). `command` is the
 * command that ran; before its options parsed (an unknown flag, say), the arguments are read as
 * commander would.
 */
export function errorsAsJson(deps: Deps | undefined, command: Command | undefined, argv: readonly string[]): boolean {
  const { words, flags } = command === undefined ? scanArgv(argv) : { words: [command.name()], flags: commandOptions<FormatFlags>(command) };
  if (flags.json) return true;
  if (words[0] !== 'quotes' || deps === undefined) return false;
  try {
    return JSON_FORMATS.has(chooseFormat(deps, flags));
  } catch {
    return false;
  }
}

/** Options that take a value, wherever they appear, and the format flags. */
const TAKES_VALUE = new Set(['--profile', '--base-url', '--org', '--format', '-f', '--symbols', '-s', '--symbols-file', '--venue', '--max-age',
  '--batch-size', '--concurrency', '--interval', '--count', '--timeout', '--retries', '--max-wait', '--ca-file', '--check-symbol', '--client-id']);

/** The command's words (`config get`) and its format flags, from arguments that did not parse. */
export function scanArgv(argv: readonly string[]): { words: string[]; flags: FormatFlags } {
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  const words: string[] = [];
  const flags: FormatFlags = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = equals === -1 ? arg : arg.slice(0, equals);
    if (arg === '--json') flags.json = true;
    else if (/^-f./.test(arg)) setFormat(flags, arg.slice(2));
    else if (TAKES_VALUE.has(name)) {
      const value = equals === -1 ? args[++i] : arg.slice(equals + 1);
      if (name === '--format' || name === '-f') setFormat(flags, value);
      if (name === '--profile') flags.profile = value;
    } else if (!arg.startsWith('-')) words.push(arg);
  }
  return { words, flags };
}

function setFormat(flags: FormatFlags, value: string | undefined): void {
  if (value !== undefined && isFormat(value)) flags.format = value;
}
