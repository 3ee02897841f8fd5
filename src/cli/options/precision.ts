// --precision minor|full|N: how a valuation's computed figures are written (the library's Precision,
// src/api/precision.ts), chosen as the format is: the flag, then MKT_PRECISION, then the profile's
// `precision` setting; with none of them, by what the output is for: `minor` where people read it
// (the table, the board), `full` where a program does (json, ndjson, csv, tsv).
import { Option, type Command } from 'commander';
import { isPrecision, MAX_PRECISION_PLACES, PRECISIONS, type Precision } from '../../api/index.js';
import { printable } from '../../shared/text.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../errors/errors.js';
import { resolveProfile, unreadableSetting } from './settings.js';
import type { Format } from './format.js';

export interface PrecisionFlags {
  precision?: Precision;
  profile?: string;
}

const HINT = `the precisions are minor, full: each currency's minor units, or the exact value (34 significant digits at most); or N, a number of decimal places from 0 to ${MAX_PRECISION_PLACES}: --precision 4`;

/**
 * `minor`, `full`, or a whole number of places written as digits (`2`, not `2.0` or `+2`; `02` and
 * `007` as the numbers they are, as every other number flag reads them); undefined otherwise.
 */
export function readPrecision(text: string): Precision | undefined {
  if (text === 'minor' || text === 'full') return text;
  if (!/^\d{1,6}$/.test(text)) return undefined;
  const places = Number(text);
  return isPrecision(places) ? places : undefined;
}

function precisionNamed(value: string): Precision {
  const precision = readPrecision(value);
  if (precision === undefined) throw new UsageError(`--precision: unknown precision ${printable(value, { max: 40, quote: true })}`, HINT);
  return precision;
}

/** --precision, its words completed as --price's are (a number of places is the third kind). */
export function addPrecisionOption(command: Command): Command {
  const option = new Option('--precision <precision>', 'how computed figures are written: minor (each currency\'s minor units; the table\'s default), full (exact, or 34 significant digits; the data formats\' default), or N decimal places (0-34)').argParser(precisionNamed);
  option.argChoices = [...PRECISIONS];
  return command.addOption(option);
}

/** The precision of output in `format`: --precision, MKT_PRECISION, the profile's, else by what the format is for. */
export function choosePrecision(deps: Deps, flags: PrecisionFlags, format: Format): Precision {
  if (flags.precision !== undefined) return flags.precision;
  const fromEnv = deps.env.MKT_PRECISION;
  if (fromEnv) {
    const precision = readPrecision(fromEnv);
    if (precision === undefined) throw new UsageError(`MKT_PRECISION must be minor, full or 0 to ${MAX_PRECISION_PLACES}, not ${printable(fromEnv, { max: 40, quote: true })}`, HINT);
    return precision;
  }
  const profile = resolveProfile(deps, flags.profile).value;
  const stored = deps.config.profile(profile)?.precision;
  if (stored !== undefined && stored !== '') {
    const precision = readPrecision(stored);
    if (precision === undefined) throw unreadableSetting(deps, profile, 'precision', stored, `minor, full or 0 to ${MAX_PRECISION_PLACES}`);
    return precision;
  }
  return format === 'table' ? 'minor' : 'full';
}
