// Which output format a command writes (any resource declared as a FieldSet, quotes among them),
// decided in one place for a one-shot run and a watch alike: --format (or --json), then MKT_FORMAT,
// then the profile's `format` setting; with none of them, table on a terminal and tsv in a pipe (a
// watch: the board on a terminal, NDJSON in a pipe). And --fields, checked against the declaration.
import { Option, type Command } from 'commander';
import type { Deps } from '../deps.js';
import { addCheckOption } from './checks.js';
import { choiceParser } from './choice-parser.js';
import { commandOptions } from './command-options.js';
import { UsageError } from '../errors/errors.js';
import { resolveProfile, unreadableSetting } from './settings.js';
import { FORMATS, isFormat, type Format } from '../../render/formats.js';
import type { FieldNames } from '../../render/fields.js';
import { printable } from '../../shared/text.js';

export { FORMATS, isFormat, type Format };

export interface FormatFlags {
  format?: Format;
  json?: boolean;
  profile?: string;
}

/**
 * The format a run writes, and where it was asked for, as a message names it (`--format csv`,
 * `MKT_FORMAT=csv`, `the profile's format csv`); `from` is undefined when none was asked for.
 */
export interface FormatChoice {
  format: Format;
  from: string | undefined;
}

/** --json and a --format other than json, refused before the command does anything else. */
export function checkFormatFlags(flags: FormatFlags): void {
  if (flags.json && flags.format !== undefined && flags.format !== 'json') {
    throw new UsageError(`--json and --format ${flags.format} cannot be used together`);
  }
}

/**
 * The format of a run, the one way every command and a watch decide it: --json or --format, then
 * MKT_FORMAT, then the profile's `format`; with none of them, table on a terminal and `inPipe`
 * anywhere else (tsv for a one-shot run; a watch passes the first format it streams).
 */
export function chooseFormat(deps: Deps, flags: FormatFlags, inPipe: Format = 'tsv'): FormatChoice {
  if (flags.json) return { format: 'json', from: '--json' };
  if (flags.format) return { format: flags.format, from: `--format ${flags.format}` };
  const fromEnv = deps.env.MKT_FORMAT;
  if (fromEnv) {
    if (!isFormat(fromEnv)) throw new UsageError(`MKT_FORMAT must be one of ${FORMATS.join(', ')}, not ${printable(fromEnv, { max: 40, quote: true })}`);
    return { format: fromEnv, from: `MKT_FORMAT=${fromEnv}` };
  }
  const profile = resolveProfile(deps, flags.profile).value;
  const stored = deps.config.profile(profile)?.format;
  if (stored !== undefined && stored !== '') {
    if (!isFormat(stored)) throw unreadableSetting(deps, profile, 'format', stored, `one of ${FORMATS.join(', ')}`);
    return { format: stored, from: `the profile's format ${stored}` };
  }
  return { format: deps.io.stdoutIsTTY ? 'table' : inPipe, from: undefined };
}

/**
 * --fields: the fields to write, in order, checked against the format and the resource's declared
 * fields (a FieldSet, src/render/fields.ts): every format takes the fields the service sends (a
 * quote's symbol, bid, ask, mid, timestamp); the table and the board also take the ones derived
 * (spread, age). Undefined without --fields: each format's own.
 */
export function parseFields<N extends string>(text: string | undefined, format: Format, model: FieldNames<N>): N[] | undefined {
  if (text === undefined) return undefined;
  const names = text.split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
  const declared = (name: string): name is N => (model.names as readonly string[]).includes(name);
  const derived = model.names.filter((name) => model.fields[name].derived);
  const only = derived.length === 0 ? '' : ` (${derived.join(' and ')} in the table and on the board only)`;
  const hint = `valid fields: ${model.names.join(', ')}${only}, e.g. --fields ${model.sent.slice(0, 3).join(',')}`;
  if (names.length === 0) throw new UsageError('--fields needs at least one field', hint);
  const fields: N[] = [];
  for (const name of names) {
    if (!declared(name)) throw new UsageError(`--fields: unknown field ${printable(name, { max: 40, quote: true })}`, hint);
    if (format !== 'table' && derived.includes(name)) throw new UsageError(`--fields: ${name} is shown by the table and the board only, not by ${format}`, hint);
    if (fields.includes(name)) throw new UsageError(`--fields: ${name} is given twice`, hint);
    fields.push(name);
  }
  return fields;
}

/**
 * -f/--format, --json and --fields, for a command that writes a resource declared as a FieldSet, and
 * --check when the declaration has checks (options/checks.ts). `own`: the formats the command writes
 * besides FORMATS (mkt value's ledger and beancount), which are --format's choices too, so help lists
 * them and completion offers them. --fields takes a list, so commander's choices() (one word) cannot
 * check it; parseFields does. The names are still the option's choices for completion and help.
 */
export function addFormatOptions(command: Command, model: FieldNames, own: readonly string[] = []): Command {
  const derived = model.names.filter((name) => model.fields[name]?.derived === true);
  const only = derived.length === 0 ? '' : ` (${derived.join(' and ')}: table and board only)`;
  const fields = new Option('--fields <list>', `the fields to write, in order, e.g. ${model.sent.slice(0, 3).join(',')}${only}`);
  fields.argChoices = [...model.names];
  // A command's own formats (mkt value's ledger and beancount) are its flag's alone: MKT_FORMAT and
  // the profile choose among FORMATS, for every command that reads them.
  const formats = [...FORMATS, ...own];
  const named = own.length === 0 ? formatNamed : choiceParser(formats, (given, valid) => new UsageError(`--format: unknown format ${given}`, `the formats are ${valid}: --format json`));
  command
    .addOption(new Option('-f, --format <format>', 'output format (default: table on a terminal, tsv in a pipe)').choices(formats).argParser(named))
    .option('--json', 'the same as --format json')
    .addOption(fields);
  return model.checks === undefined ? command : addCheckOption(command, model.checks);
}

const formatNamed = choiceParser(FORMATS, (given, valid) => new UsageError(`--format: unknown format ${given}`, `the formats are ${valid}: --format json`));

/** Formats a script reads as JSON: what mkt says on stderr is then JSON lines too. */
const JSON_FORMATS: ReadonlySet<Format> = new Set(['json', 'ndjson']);

/**
 * Whether what mkt says on stderr is JSON lines (output/diagnostics.ts: warnings, debug lines, waits, the
 * error object last): it follows the effective output format of the command that runs, however it
 * was chosen (--json, --format json, -f json, MKT_FORMAT, the profile's setting). A watch in a pipe
 * streams NDJSON without being asked to: its stderr is text, unless JSON was chosen.
 */
export function diagnosticsAsJson(deps: Deps | undefined, command: Command | undefined): boolean {
  if (command === undefined) return false;
  const flags = commandOptions<FormatFlags>(command);
  if (flags.json) return true;
  // Only a command that takes --format has a format to follow without being asked for JSON.
  if (!command.options.some((option) => option.long === '--format') || deps === undefined) return false;
  try {
    return JSON_FORMATS.has(chooseFormat(deps, flags).format);
  } catch {
    return false;
  }
}
