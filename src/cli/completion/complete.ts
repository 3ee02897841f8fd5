// The one completion generator, as cobra's `__complete` is: given the words after `mkt` (the last one
// the word under the cursor, "" for a new one), it finds where the cursor is in the live commander
// program (which command, which option waits for a value, which argument comes next) and lists the
// candidates. The shell scripts print nothing of their own: a new command, option or choice
// completes without touching this file.
import type { Command, Option } from 'commander';
import { argumentValues, optionValues, type Candidate } from './candidates.js';

/** What the shell does besides offering the candidates: bits with cobra's values (ShellCompDirective). */
export const Directive = {
  /** None of the bits (cobra's ShellCompDirectiveDefault): the shell completes file names when there is no candidate. */
  files: 0,
  /** Something failed: offer nothing, not even file names. */
  error: 1,
  /** No space after the candidate: a list goes on (`--fields symbol,bid`). */
  noSpace: 2,
  /** No file names when there is no candidate. */
  noFiles: 4,
  /** Directory names only. */
  dirsOnly: 16,
} as const;

export interface Completion {
  candidates: Candidate[];
  /** A sum of Directive bits; 0: the shell completes file names when there is no candidate. */
  directive: number;
}

/**
 * A value that is a path, by the name its option or argument gives it in help (`--ca-file <path>`,
 * `mkt value <file>`), and how the shell completes it: file names, or directories only. Any other
 * value completes from its choices or not at all. test/cli/completion/complete.test.ts reads every help
 * page and holds each value's name to this list (or to its list of values that are not paths).
 */
export const PATH_VALUES: Readonly<Record<string, number>> = {
  file: Directive.files,
  path: Directive.files,
  // A program to run (--exec): a file, or a name on PATH.
  program: Directive.files,
  dir: Directive.dirsOnly,
};

/** Values that change after the script is installed, read at Tab time, by an option's long flag. */
export type OptionValues = ReadonlyMap<string, () => readonly string[]>;

/** Where the cursor is: the command named so far, its arguments so far, an option waiting for a value. */
interface Position {
  command: Command;
  /** The group whose commands commander's own `help` subcommand takes (`mkt config help <TAB>`). */
  helpOf: Command | undefined;
  args: string[];
  given: Set<Option>;
  /** An option whose value is the word under the cursor. */
  pending: Option | undefined;
  /** After `--`: only arguments. */
  literal: boolean;
}

const NONE: Completion = { candidates: [], directive: Directive.noFiles };

export function complete(program: Command, words: readonly string[], optionValues: OptionValues = new Map()): Completion {
  const current = words.at(-1) ?? '';
  const at = locate(program, words.slice(0, -1));
  if (at.pending !== undefined) return optionValue(at.pending, current, optionValues);
  if (!at.literal && current.startsWith('-')) {
    const equals = current.indexOf('=');
    if (current.startsWith('--') && equals > 0) {
      // --format=j: the value after the "="; the scripts put the "--format=" back where the shell needs it.
      const option = findOption(at.command, current.slice(0, equals));
      return option !== undefined && takesValue(option) ? optionValue(option, current.slice(equals + 1), optionValues) : NONE;
    }
    return { candidates: optionFlags(at.command, at.given).filter((candidate) => candidate.value.startsWith(current)), directive: Directive.noFiles };
  }
  return operands(at, current);
}

/**
 * Walks the words as commander parses them: a command name before any argument descends into that
 * command (whose options are then its own: the program's go before the command only), an option
 * that takes a value takes the next word (or what follows its "="), and `--` ends the options.
 */
function locate(program: Command, words: readonly string[]): Position {
  const at: Position = { command: program, helpOf: undefined, args: [], given: new Set(), pending: undefined, literal: false };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (at.literal || word === '-' || !word.startsWith('-')) {
      const sub = at.literal || at.args.length > 0 ? undefined : findCommand(at.command, word);
      if (sub === undefined) {
        at.args.push(word);
        continue;
      }
      at.helpOf = at.command.commands.includes(sub) ? undefined : at.command;
      at.command = sub;
      at.args = [];
      at.given = new Set();
      continue;
    }
    if (word === '--') {
      at.literal = true;
      continue;
    }
    const waiting = optionWaiting(at, word);
    if (waiting === undefined) continue;
    if (i === words.length - 1) at.pending = waiting;
    // An optional value is taken only if it does not look like an option, as commander does.
    else if (waiting.required || !words[i + 1]!.startsWith('-')) i++;
  }
  return at;
}

/** Records the option(s) `word` names; returns the one that takes the next word as its value, if any. */
function optionWaiting(at: Position, word: string): Option | undefined {
  const equals = word.indexOf('=');
  const whole = findOption(at.command, equals > 0 && word.startsWith('--') ? word.slice(0, equals) : word);
  if (whole !== undefined) {
    at.given.add(whole);
    return takesValue(whole) && !(equals > 0 && word.startsWith('--')) ? whole : undefined;
  }
  if (word.startsWith('--')) return undefined;
  // -vq: flags together; -fjson: a flag and its value.
  for (let c = 1; c < word.length; c++) {
    const option = findOption(at.command, `-${word[c]}`);
    if (option === undefined) return undefined;
    at.given.add(option);
    if (takesValue(option)) return c === word.length - 1 ? option : undefined;
  }
  return undefined;
}

function optionValue(option: Option, typed: string, given: OptionValues): Completion {
  const own = optionValues(option);
  if (own !== undefined) return { candidates: readSafely(own).filter((candidate) => candidate.value.startsWith(typed)), directive: Directive.noFiles };
  const dynamic = option.long === undefined ? undefined : given.get(option.long);
  const choices = dynamic === undefined ? option.argChoices : readSafely(dynamic);
  const valueName = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? '';
  if (choices !== undefined && valueName === 'list') return { candidates: listItems(choices, typed), directive: Directive.noSpace | Directive.noFiles };
  if (choices !== undefined) return { candidates: choices.filter((choice) => choice.startsWith(typed)).map((value) => ({ value })), directive: Directive.noFiles };
  return pathValue(valueName) ?? NONE;
}

/** The shell's own completion of a value that is a path (PATH_VALUES), or undefined for one that is not. */
function pathValue(name: string): Completion | undefined {
  return Object.hasOwn(PATH_VALUES, name) ? { candidates: [], directive: PATH_VALUES[name]! } : undefined;
}

/**
 * A comma-separated list of choices (--fields): the items typed before the last comma stay as they
 * are, the last one completes from the choices not given yet. A list with an item that is not a
 * choice gets nothing: what is offered is only ever choices.
 */
function listItems(choices: readonly string[], typed: string): Candidate[] {
  const items = typed.split(',');
  const last = items.pop()!;
  if (items.some((item) => !choices.includes(item))) return [];
  return choices
    .filter((choice) => !items.includes(choice) && choice.startsWith(last))
    .map((choice) => ({ value: [...items, choice].join(',') }));
}

/** The command's visible options not given yet, each flag a candidate. */
function optionFlags(command: Command, given: ReadonlySet<Option>): Candidate[] {
  return command.createHelp().visibleOptions(command)
    .filter((option) => !given.has(option))
    .flatMap((option) => [option.short, option.long]
      .filter((flag): flag is string => flag !== undefined)
      .map((value) => ({ value, description: option.description })));
}

/** Subcommands before any argument, then the values of the argument the cursor is at: its choices, or file names for a path. */
function operands(at: Position, typed: string): Completion {
  const { command, args } = at;
  const offer = (candidates: Candidate[]): Completion => ({ candidates: candidates.filter((candidate) => candidate.value.startsWith(typed)), directive: Directive.noFiles });
  const subcommands = args.length === 0 ? visibleCommands(command) : [];
  if (subcommands.length > 0) {
    return offer(subcommands.flatMap((sub) => [sub.name(), ...sub.aliases()].map((value) => ({ value, description: sub.summary() || sub.description() }))));
  }
  const own = argumentValues(command);
  if (own !== undefined) return offer(own(args));
  // commander's own `help` of a group takes one of the group's commands.
  if (at.helpOf !== undefined) return offer(args.length > 0 ? [] : visibleCommands(at.helpOf).filter((sub) => sub !== command).map((sub) => ({ value: sub.name(), description: sub.description() })));
  const declared = command.registeredArguments;
  const last = declared.at(-1);
  const argument = declared[args.length] ?? (last?.variadic ? last : undefined);
  if (argument?.argChoices === undefined && argument !== undefined) return pathValue(argument.name()) ?? NONE;
  return offer((argument?.argChoices ?? []).map((value) => ({ value })));
}

/** Visible subcommands, with commander's implicit `help` of a group. */
function visibleCommands(command: Command): Command[] {
  return command.createHelp().visibleCommands(command);
}

/** A subcommand by name or alias, hidden ones included (their arguments are walked the same way). */
function findCommand(command: Command, name: string): Command | undefined {
  const named = (sub: Command) => sub.name() === name || sub.aliases().includes(name);
  return command.commands.find(named) ?? visibleCommands(command).find(named);
}

function findOption(command: Command, flag: string): Option | undefined {
  return command.options.find((option) => option.short === flag || option.long === flag);
}

function takesValue(option: Option): boolean {
  return option.required || option.optional;
}

/** Values read at Tab time: a failure is no candidates, never an error in the prompt. */
function readSafely<T>(read: () => readonly T[]): readonly T[] {
  try {
    return read();
  } catch {
    return [];
  }
}

/**
 * What mkt prints: one candidate per line, a tab and its description where it has one, then
 * `:<directive>`. Only candidates made of letters, digits and `_ . + , -` are printed: a shell is
 * about to insert them into a command line, and they never need more.
 */
export function formatCompletion({ candidates, directive }: Completion): string {
  const seen = new Set<string>();
  let text = '';
  for (const { value, description } of candidates) {
    if (!/^[A-Za-z0-9_.+,-]+$/.test(value) || seen.has(value)) continue;
    seen.add(value);
    const words = description?.replace(/[\s\x00-\x1f\x7f]+/g, ' ').trim();
    text += words ? `${value}\t${words}\n` : `${value}\n`;
  }
  return `${text}:${directive}\n`;
}
