// What `mkt ... --help` prints, read back as data: tests derive the commands, options and choices
// they expect from the help users see, rather than from lists of their own.
import { expect } from 'vitest';
import { runCli } from './cli.js';

interface HelpOption {
  /** Short and long: ['-f', '--format']. */
  flags: string[];
  takesValue: boolean;
  /** What help calls its value: `format` for `-f, --format <format>`; undefined for a flag that takes none. */
  value: string | undefined;
  /** commander's "(choices: ...)". */
  choices: string[];
}

export interface HelpPage {
  /** The names under "Commands:", in order. */
  commands: string[];
  options: HelpOption[];
  /** Each argument's choices, in order ([] for one without). */
  arguments: string[][];
  /** Each argument's name, in order: `file` for `mkt value <file>`. */
  argumentNames: string[];
  text: string;
}

/** The items of each section of a help page ("Options:", "Commands:"), wrapped lines joined. */
function sections(text: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  let items: string[] | undefined;
  for (const line of text.split('\n')) {
    const header = /^(\w[\w ]*):$/.exec(line);
    if (header) found.set(header[1]!, (items = []));
    else if (items && /^ {2}\S/.test(line)) items.push(line.trim());
    else if (items && /^ {3,}\S/.test(line) && items.length > 0) items[items.length - 1] += ` ${line.trim()}`;
    else items = undefined;
  }
  return found;
}

const choicesIn = (item: string) => [.../\(choices: ([^)]*)\)/.exec(item)?.[1]?.matchAll(/"([^"]*)"/g) ?? []].map((match) => match[1]!);

/** `mkt <words> --help`, read. */
export async function helpPage(words: readonly string[] = []): Promise<HelpPage> {
  const result = await runCli([...words, '--help']);
  expect(result.code).toBe(0);
  const found = sections(result.stdout);
  return {
    commands: (found.get('Commands') ?? []).map((item) => item.split(' ')[0]!),
    options: (found.get('Options') ?? []).map((item) => {
      const flags = item.split(/\s{2,}/)[0]!;
      return { flags: flags.match(/-{1,2}[A-Za-z0-9][\w-]*/g) ?? [], takesValue: /[<[]/.test(flags), value: /[<[]([^>\]]+)[>\]]/.exec(flags)?.[1], choices: choicesIn(item) };
    }),
    arguments: (found.get('Arguments') ?? []).map(choicesIn),
    argumentNames: (found.get('Arguments') ?? []).map((item) => item.split(' ')[0]!),
    text: result.stdout,
  };
}

/** Every command `mkt --help` leads to, the program first, each with its help page. */
export async function everyHelpPage(): Promise<Array<[string[], HelpPage]>> {
  const pages: Array<[string[], HelpPage]> = [];
  const visit = async (words: string[]) => {
    const page = await helpPage(words);
    pages.push([words, page]);
    for (const name of page.commands) if (name !== 'help') await visit([...words, name]);
  };
  await visit([]);
  return pages;
}

/** The topics of `mkt help`: what `mkt help <Tab>` offers that is not a command. */
export async function helpTopics(): Promise<string[]> {
  const offered = await runCli(['__complete', 'help', '']);
  const commands = new Set((await helpPage()).commands);
  return offered.stdout.split('\n').filter((line) => /^[^:]/.test(line)).map((line) => line.split('\t')[0]!).filter((name) => name !== '' && !commands.has(name));
}

/** Why an example is not run, as the mark that ends its comment says (README, "Development"). */
export const EXAMPLE_MARKS = ['interactive', 'long-running', 'set-up'] as const;

export interface HelpExample {
  /** Where it is shown: `mkt value --help`, `mkt help environment`. */
  page: string;
  /** The command line after the `$ ` prompt, its comment left off. */
  command: string;
  /** Its comment, after `# `; '' when it has none. */
  comment: string;
  /** The mark its comment ends with, `(interactive)`; undefined: the example is run. */
  mark: (typeof EXAMPLE_MARKS)[number] | undefined;
}

/** `line` split where a shell would start its comment: a `#` beginning a word, outside quotes. */
function splitComment(line: string): [string, string] {
  let quote: string | undefined;
  for (let at = 0; at < line.length; at++) {
    const char = line[at]!;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"') at++;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '\\') at++;
    else if (char === '#' && (at === 0 || /\s/.test(line[at - 1]!))) return [line.slice(0, at).trimEnd(), line.slice(at + 1).trim()];
  }
  return [line.trimEnd(), ''];
}

/** Every `$ ` line of every help page and `mkt help` topic, as users see them. */
export async function helpExamples(): Promise<HelpExample[]> {
  const pages: Array<[string, string]> = (await everyHelpPage()).map(([words, page]) => [`mkt ${[...words, '--help'].join(' ')}`, page.text]);
  for (const topic of await helpTopics()) {
    const result = await runCli(['help', topic]);
    expect(result.code).toBe(0);
    pages.push([`mkt help ${topic}`, result.stdout]);
  }
  return pages.flatMap(([page, text]) => text.split('\n').flatMap((line) => {
    const prompt = /^\s+\$ (.*)$/.exec(line);
    if (!prompt) return [];
    const [command, comment] = splitComment(prompt[1]!);
    const mark = EXAMPLE_MARKS.find((name) => comment.endsWith(`(${name})`));
    return [{ page, command, comment, mark }];
  }));
}
