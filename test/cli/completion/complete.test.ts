// The completion generator (`mkt __complete`), in process. What it must offer is read from what
// `mkt <command> --help` prints for every command (its commands, options and choices), so that no
// list here needs keeping up to date: completion and help must agree, whatever commands there are.
import fs from 'node:fs';
import path from 'node:path';
import { Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { currencyCodes, currencyUnit } from '../../../src/api/internal.js';
import { complete, Directive, PATH_VALUES } from '../../../src/cli/completion/complete.js';
import { addFormatOptions, FORMATS } from '../../../src/cli/options/format.js';
import { createProgram } from '../../../src/cli/program.js';
import { QUOTE_MODEL } from '../../../src/render/quote-model.js';
import { createTestDeps, runCli, tempDir } from '../../helpers/cli.js';
import { everyHelpPage } from '../../helpers/help.js';

const program = () => createProgram(createTestDeps().deps, { exitCode: 0, cleanups: [] });
const values = (words: string[], given = program()) => complete(given, words).candidates.map((candidate) => candidate.value);

const pages = await everyHelpPage();

describe('completion agrees with `mkt <command> --help`, for every command', () => {
  it('finds the commands: the program and its groups have commands, the leaves have options', () => {
    expect(pages.length).toBeGreaterThan(5);
    expect(pages[0]![1].commands.length).toBeGreaterThan(5);
    expect(pages.some(([words]) => words.length === 2)).toBe(true);
  });

  it.each(pages.filter(([words]) => words.at(-1) !== 'help'))('mkt %j <TAB>: its commands, or its first argument\'s choices', (words, page) => {
    expect(values([...words, ''])).toEqual(page.commands.length > 0 ? page.commands : page.arguments[0] ?? []);
  });

  it.each(pages)('mkt %j -<TAB>: every option its help lists', (words, page) => {
    expect(values([...words, '-']).sort()).toEqual(page.options.flatMap((option) => option.flags).sort());
  });

  it.each(pages.flatMap(([words, page]) => page.options.filter((option) => option.choices.length > 0).map((option) => [words, option.flags.join(', '), option] as const)))(
    'mkt %j: the choices of %s, after the flag and after "="',
    (words, _flags, option) => {
      for (const flag of option.flags) expect(values([...words, flag, ''])).toEqual(option.choices);
      const long = option.flags.find((flag) => flag.startsWith('--'))!;
      expect(values([...words, `${long}=`])).toEqual(option.choices);
      expect(values([...words, `${long}=${option.choices[1]!.slice(0, 2)}`])).toEqual(option.choices.filter((choice) => choice.startsWith(option.choices[1]!.slice(0, 2))));
    },
  );

  it('mkt help <TAB>: the topics its help names, then the commands; mkt help config <TAB>: config\'s', async () => {
    const topics = [...(await runCli(['--help'])).stdout.matchAll(/`mkt help ([a-z-]+)`/g)].map((match) => match[1]!);
    expect(topics.length).toBeGreaterThan(0);
    const commands = pages[0]![1].commands.filter((name) => name !== 'help');
    expect(values(['help', ''])).toEqual([...topics, ...commands]);
    const config = pages.find(([words]) => words.join(' ') === 'config')![1].commands.filter((name) => name !== 'help');
    expect(values(['help', 'config', ''])).toEqual(config);
    expect(values(['config', 'help', ''])).toEqual(config);
  });

  it('leaves hidden commands and options out', () => {
    expect(values(['__'])).toEqual([]);
    const login = pages.find(([words]) => words.join(' ') === 'login')![1];
    const hidden = program().commands.find((command) => command.name() === 'login')!.options.filter((option) => option.hidden).map((option) => option.long);
    expect(hidden.length).toBeGreaterThan(0);
    for (const flag of hidden) {
      expect(login.options.flatMap((option) => option.flags)).not.toContain(flag);
      expect(values(['login', '--'])).not.toContain(flag);
    }
  });
});

/**
 * The names help gives values that are not paths: a value by any other name fails the test below
 * until it is put here or named as a path (PATH_VALUES: file, path, dir, program), so that an option
 * or argument added later that takes a path is not left without file names.
 */
const NOT_PATHS = new Set([
  'currency', 'duration', 'expr', 'format', 'host', 'id', 'key', 'kind', 'label', 'list', 'mapping', 'n', 'name', 'org_id', 'port',
  'precision', 'rule', 'seconds', 'shell', 'symbol', 'topic', 'url', 'value', 'venue',
]);

describe('every value that is a path completes file names, by the name help gives it, on every help page', () => {
  const options = pages.flatMap(([words, page]) => page.options.filter((option) => option.value !== undefined).map((option) => [words, option.flags.at(-1)!, option.value!] as const));
  const operands = pages.flatMap(([words, page]) => page.argumentNames.map((name, index) => [words, index, name] as const));

  it('reads the values it checks: paths among them, the value\'s argument and --exec\'s program', () => {
    expect(options.map(([, , name]) => name)).toEqual(expect.arrayContaining(['file', 'path', 'program']));
    expect(operands).toContainEqual([['value'], 0, 'file']);
  });

  it.each(options)('mkt %j %s <%s>', (words, flag, name) => {
    if (!Object.hasOwn(PATH_VALUES, name)) {
      expect(NOT_PATHS, `the value <${name}> of ${flag}: a path (name it file, path, dir or program) or not (add it to NOT_PATHS)`).toContain(name);
      return;
    }
    for (const typed of [[flag, ''], [`${flag}=`]]) expect(complete(program(), [...words, ...typed])).toEqual({ candidates: [], directive: PATH_VALUES[name] });
  });

  it.each(operands)('mkt %j, argument %i, <%s>', (words, index, name) => {
    if (!Object.hasOwn(PATH_VALUES, name)) {
      expect(NOT_PATHS, `the argument <${name}>: a path (name it file, path, dir or program) or not (add it to NOT_PATHS)`).toContain(name);
      return;
    }
    expect(complete(program(), [...words, ...Array.from({ length: index }, () => 'x'), ''])).toEqual({ candidates: [], directive: PATH_VALUES[name] });
  });
});

describe('mkt value\'s values', () => {
  it('--base and --currency: every currency code the library takes, ISO 4217\'s with their names and the minor units with theirs', () => {
    for (const flag of ['--base', '--currency']) {
      const { candidates, directive } = complete(program(), ['value', 'portfolio.csv', flag, '']);
      expect(directive).toBe(Directive.noFiles);
      expect(candidates.map((candidate) => candidate.value)).toEqual(currencyCodes());
      expect(candidates.every((candidate) => currencyUnit(candidate.value) !== undefined)).toBe(true);
      expect(candidates).toEqual(expect.arrayContaining([
        { value: 'EUR', description: 'Euro' }, { value: 'JPY', description: 'Japanese Yen' }, { value: 'XAU', description: 'Gold' },
        { value: 'GBX', description: 'a hundredth of GBP' }, { value: 'GBp', description: 'a hundredth of GBP' }, { value: 'KWF', description: 'a thousandth of KWD' },
      ]));
    }
    expect(currencyCodes().length).toBeGreaterThan(150);
    expect(values(['value', 'p.csv', '--base', 'GB'])).toEqual(['GBP', 'GBX', 'GBp']);
    expect(values(['value', 'p.csv', '--currency=US'])).toEqual(['USD', 'USX', 'USd']);
  });

  it('--price and --precision: their choices', () => {
    expect(complete(program(), ['value', 'p.csv', '--price', ''])).toEqual({ candidates: ['mid', 'bid', 'ask', 'side'].map((value) => ({ value })), directive: Directive.noFiles });
    expect(complete(program(), ['value', 'p.csv', '--precision', ''])).toEqual({ candidates: [{ value: 'minor' }, { value: 'full' }], directive: Directive.noFiles });
  });

  it('--format: the command\'s own formats, ledger and beancount among them, as its --format option has them', async () => {
    const { options } = pages.find(([words]) => words.join(' ') === 'value')![1];
    const formats = options.find((option) => option.flags.includes('--format'))!.choices;
    expect(values(['value', 'p.csv', '--format', ''])).toEqual(formats);
    expect(formats).toEqual([...FORMATS, 'ledger', 'beancount']);
    expect(values(['value', 'p.csv', '-f', 'be'])).toEqual(['beancount']);
    expect(values(['quotes', '--format', ''])).toEqual([...FORMATS]);
    const extended = program();
    addFormatOptions(extended.command('other'), QUOTE_MODEL, ['yaml']);
    expect(values(['other', '--format', ''], extended)).toEqual([...FORMATS, 'yaml']);
  });
});

describe('where the cursor is', () => {
  it.each([
    [['q'], ['quotes']],
    [['quotes', '--wa'], ['--watch']],
    [['--profile', 'ci', 'quo'], ['quotes']], // a shared flag's value before the command is not a command
    [['quotes', '--venue', 'XNAS', '--fo'], ['--format']], // nor is an option's value
    [['quotes', '--venue', 'con'], []],
    [['quotes', 'EURUSD', 'con'], []], // an argument: no commands after it
    [['quotes', '--format', 'json', '--fo'], []], // an option given is not offered again
    [['quotes', '-wf', 'j'], ['json']], // -w and -f together, -f's value next
    [['quotes', '--format=json', '--form'], []],
    [['--qu'], ['--quiet']],
    [['sandbox', '--pro'], []], // after the command, only its own options
    [['quotes', '--', '--fo'], []], // after --, arguments only
    [['config', 'get', '--p'], ['--profile']],
    [['completion', ''], ['bash', 'zsh', 'fish']],
    [['quotes', '--fields', 'sym'], ['symbol']],
    [['quotes', '--fields', 'symbol,'], ['symbol,bid', 'symbol,ask', 'symbol,mid', 'symbol,timestamp', 'symbol,spread', 'symbol,age']],
    [['quotes', '--fields=symbol,a'], ['symbol,ask', 'symbol,age']],
    [['quotes', '--fields', 'symbol,bid,mid,ask,timestamp,spread,'], ['symbol,bid,mid,ask,timestamp,spread,age']],
    [['quotes', '--fields', 'symbol,nope,'], []], // only ever known fields
    [['quotes', '--fields', 'symbol,symbol'], []], // none twice
  ])('%j -> %j', (words, expected) => {
    expect(values(words)).toEqual(expected);
  });

  it.each([
    [['quotes', '--fields', 'symbol,'], Directive.noSpace | Directive.noFiles], // the list may go on
    [['quotes', '--symbols-file', ''], Directive.files], // file names
    [['sandbox', '--ready-file', ''], Directive.files],
    [['value', ''], Directive.files], // the positions file
    [['value', '-', '--base', 'USD', ''], Directive.noFiles], // one file only
    [['quotes', 'EURUSD', '--watch', '--until', 'EURUSD.bid > 1', '--exec', ''], Directive.files], // a program, by its path
    [['quotes', '--venue', ''], Directive.noFiles], // free text
    [['quotes', ''], Directive.noFiles], // symbols, not files
    [['quotes', '--format', ''], Directive.noFiles],
  ])('%j: directive %i', (words, directive) => {
    expect(complete(program(), words).directive).toBe(directive);
  });

  it('is read from the command tree: a new command, its option\'s choices and its argument\'s complete with no list to update', () => {
    const extended = program();
    extended.command('extra').description('an extra command').argument('<speed>').addOption(new Option('--mode <mode>', 'how').choices(['fast', 'slow']));
    extended.commands.at(-1)!.registeredArguments[0]!.choices(['up', 'down']);
    expect(complete(extended, ['ex'])).toEqual({ candidates: [{ value: 'extra', description: 'an extra command' }], directive: Directive.noFiles });
    expect(values(['extra', '--mode', ''], extended)).toEqual(['fast', 'slow']);
    expect(values(['extra', ''], extended)).toEqual(['up', 'down']);
  });
});

describe('mkt __complete', () => {
  const configDir = path.join(tempDir('mkt-complete-'), 'config');
  const withProfiles = async () => {
    for (const profile of ['default', 'ci', 'prod-eu']) expect((await runCli(['config', 'set', 'org', 'org_demo', '--profile', profile], { configDir })).code).toBe(0);
    // Emptied: nothing left in it to use.
    expect((await runCli(['config', 'set', 'org', 'org_demo', '--profile', 'emptied'], { configDir })).code).toBe(0);
    expect((await runCli(['config', 'unset', 'org', '--profile', 'emptied'], { configDir })).code).toBe(0);
  };

  it('prints a candidate per line, a tab and its description, then :<directive>', async () => {
    const result = await runCli(['__complete', '--', 'quotes', '--for']);
    expect(result).toMatchObject({ code: 0, stderr: '', stdout: `--format\toutput format (default: table on a terminal, tsv in a pipe)\n:${Directive.noFiles}\n` });
    expect((await runCli(['__complete', 'quotes', '--format', 'j'])).stdout).toBe(`json\n:${Directive.noFiles}\n`); // without the --, too
  });

  it('lists the profiles --profile accepts that hold something, read at Tab time', async () => {
    await withProfiles();
    expect(await runCli(['__complete', '--', 'quotes', '--profile', ''], { configDir })).toMatchObject({ code: 0, stderr: '', stdout: 'ci\ndefault\nprod-eu\n:4\n' });
    expect((await runCli(['__complete', '--', '--profile=p'], { configDir })).stdout).toBe('prod-eu\n:4\n');
  });

  it('prints no candidates, and no error, when the config cannot be read', async () => {
    const corrupt = path.join(tempDir(), 'config');
    fs.mkdirSync(corrupt, { mode: 0o700 });
    fs.writeFileSync(path.join(corrupt, 'config.json'), '{not json', { mode: 0o600 });
    expect(await runCli(['__complete', '--', 'quotes', '--profile', ''], { configDir: corrupt })).toMatchObject({ code: 0, stderr: '', stdout: ':4\n' });
    expect(await runCli(['__complete', '--', 'quotes', '--profile', ''], { configDir: path.join(tempDir(), 'none') })).toMatchObject({ code: 0, stdout: ':4\n' });
  });

  it('is hidden from help', async () => {
    expect((await runCli(['--help'])).stdout).not.toContain('__complete');
    expect((await runCli(['help', 'bogus'])).stderr).not.toContain('__complete');
  });
});

describe('mkt completion', () => {
  it.each([['bash', ''], ['zsh', '#compdef mkt\n'], ['fish', '']])('prints the %s script on stdout', async (name, first) => {
    const result = await runCli(['completion', name]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.startsWith(`${first}# ${name} completion for mkt: each Tab asks \`mkt __complete\``)).toBe(true);
  });

  it.each(['tcsh', 'powershell', 'BASH', ''])('refuses %j in its own words, with exit 2 and the shells', async (name) => {
    const result = await runCli(['completion', name]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(`error: mkt completion has no script for "${name}"\nhint: the shells are bash, zsh, fish: mkt completion bash\n`);
  });

  it('needs a shell', async () => {
    expect((await runCli(['completion'])).code).toBe(2);
  });
});
