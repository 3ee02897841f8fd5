// Help that runs (issue 37 item 4). Every example of every help page (`mkt ... --help`) and `mkt help`
// topic, a `$ ` line as users see it, is read from the pages themselves, so an example added later is
// run without editing this file. Each runs as written through sh, with mkt in this process
// (test/helpers/in-process-shell.ts) on the sandbox's pinned clock (TEST_EPOCH, 6 January 2025,
// 14:30:15.250 UTC: every example starts there, and each sleep moves it), in a directory holding the
// files the examples name, as the README's Quick start leaves a user: MKT_BASE_URL in the
// environment, the profiles default and ci logged in (and the variables an example's comment says
// come from a secret store). Each must
// - exit as its comment says: 0, or 0 or N for `exit N if ...`, every mkt in it as well;
// - write the kind of output it promises: a table on the terminal, TSV in a pipe, CSV, JSON that
//   parses, an object per line;
// - write what the sandbox's own answer gives: every bid, ask, mid and timestamp of a quote, and a
//   valuation's total in its base, worked out here in exact fractions; and what a pipe or a file
//   ends with, exactly, where EXACT below says.
// An example that cannot be run to its end is marked where it is written, by the rule the README
// states (Development): its comment ends in (interactive), (long-running) or (set-up). Any other that
// asks at a prompt, does not end or fails, fails here.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, type RequestLogEntry } from '../../src/sandbox/index.js';
import { SCHWAB } from '../helpers/broker-exports.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { fullText, rat, ratDiv, ratMul, ratSum, roundPlaces, type Rat } from '../helpers/decimal-oracle.js';
import { everyHelpPage, EXAMPLE_MARKS, helpExamples, helpPage, helpTopics, type HelpExample } from '../helpers/help.js';
import { startInProcessShell, type InProcessShell, type MktRun, type ShellResult } from '../helpers/in-process-shell.js';
import { getQuotes, getToken, startTestSandbox, TEST_EPOCH, type TestSandbox } from '../helpers/sandbox.js';

const CI = { client_id: 'ci', client_secret: 'ci-secret-0123456789', orgs: [DEMO.org], scopes: ['market.read'] };

/** A position as the test reads its fixture, by hand. */
interface Lot {
  symbol: string;
  quantity: string;
  /** Undefined: --currency's. */
  currency?: string;
}

/** The files the examples name, and the lots the test reads in each. */
const FILES: Record<string, { text: string; mode?: number; lots?: Lot[] }> = {
  'portfolio.csv': {
    text: 'symbol,quantity,currency,cost\nAAPL,10,USD,150\nSAP.DE,20,EUR\nNOSUCH,1,USD\nEUR,2500.75,EUR\n',
    lots: [{ symbol: 'AAPL', quantity: '10', currency: 'USD' }, { symbol: 'SAP.DE', quantity: '20', currency: 'EUR' }, { symbol: 'NOSUCH', quantity: '1', currency: 'USD' }, { symbol: 'EUR', quantity: '2500.75', currency: 'EUR' }],
  },
  'portfolio.tsv': { text: 'symbol\tquantity\tcurrency\nAAPL\t10\tUSD\n', lots: [{ symbol: 'AAPL', quantity: '10', currency: 'USD' }] },
  'positions.csv': { text: SCHWAB, lots: [{ symbol: 'AAPL', quantity: '100' }, { symbol: 'MSFT', quantity: '1250' }, { symbol: 'SPY', quantity: '-20' }] },
  'depot.csv': { text: 'Ticker;Name;Stück;Währung;Einstandskurs\nSAP.DE;SAP SE;1.250;EUR;180,50\n', lots: [{ symbol: 'SAP.DE', quantity: '1250', currency: 'EUR' }] },
  'holdings.json': {
    text: '[{"symbol": "AAPL", "quantity": "10"}, {"symbol": "VOD.L", "quantity": 100, "currency": "GBX"}]',
    lots: [{ symbol: 'AAPL', quantity: '10' }, { symbol: 'VOD.L', quantity: '100', currency: 'GBX' }],
  },
  'watchlist.txt': { text: '# the desk\nEURUSD\nAAPL\n' },
  // --exec's program: only its owner can change it, as mkt requires.
  notify: { text: '#!/bin/sh\necho "$MKT_SYMBOL $*" >> notified.txt\n', mode: 0o755 },
  'key.txt': { text: `${DEMO.apiKey}\n`, mode: 0o600 },
  'secret.txt': { text: `${CI.client_secret}\n`, mode: 0o600 },
};

/** What a CI's secret store holds: set for an example whose comment names the variable. */
const SECRETS: Record<string, string> = { MKT_CLIENT_ID: CI.client_id, MKT_CLIENT_SECRET: CI.client_secret, MKT_API_KEY: DEMO.apiKey };

let sb: TestSandbox;
let shell: InProcessShell;
let dir: string;
let work: string;
/** The examples' home: where they install completion scripts. */
let HOME: string;
/** A token for the test's own requests to the sandbox. */
let token: string;
const log: RequestLogEntry[] = [];
beforeAll(async () => {
  sb = await startTestSandbox({ limits: { perMinute: 1_000_000, perHour: 1_000_000, perDay: 1_000_000 }, clients: [CI], onRequest: (entry) => log.push(entry) });
  token = await getToken(sb.url);
  dir = tempDir('mkt-help-examples-');
  work = path.join(dir, 'work');
  HOME = path.join(dir, 'home');
  fs.mkdirSync(work);
  fs.mkdirSync(HOME);
  for (const [name, { text, mode }] of Object.entries(FILES)) fs.writeFileSync(path.join(work, name), text, { mode: mode ?? 0o644 });
  shell = await startInProcessShell(dir, { now: () => sb.clock.now(), sleep: async (ms) => sb.clock.advance(ms), maxSleeps: 200 });
});
afterAll(async () => {
  await shell?.close();
  await sb?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// --- Running an example ---

/** Each page's config directory: its examples run one after another in it, as a user types them. */
const configs = new Map<string, string>();

/** The config the Quick start leaves: profiles default and ci logged in with the demo key. */
async function pageConfig(page: string): Promise<string> {
  let config = configs.get(page);
  if (config === undefined) {
    config = path.join(dir, `config-${configs.size + 1}`);
    configs.set(page, config);
    sb.clock.set(TEST_EPOCH);
    for (const profile of ['default', 'ci']) {
      const login = await runCli(['login', '--org', DEMO.org, '--profile', profile], { configDir: config, env: { MKT_BASE_URL: sb.url, MKT_API_KEY: DEMO.apiKey }, now: () => sb.clock.now() });
      expect(login.code).toBe(0);
    }
  }
  return config;
}

interface Ran {
  example: HelpExample;
  result: ShellResult;
  config: string;
  /** The instants the sandbox answered quotes at, in order. */
  polls: number[];
}

async function run(example: HelpExample): Promise<Ran> {
  const config = await pageConfig(example.page);
  const env: Record<string, string> = { PATH: process.env.PATH!, HOME, LANG: 'C.UTF-8', MKT_BASE_URL: sb.url, MKT_CONFIG_DIR: config };
  for (const name of example.comment.match(/\bMKT_[A-Z_]+/g) ?? []) if (SECRETS[name] !== undefined) env[name] = SECRETS[name];
  sb.clock.set(TEST_EPOCH);
  log.length = 0;
  const result = await shell.run(example.command, { cwd: work, env, timeoutMs: 30_000 });
  const polls = log.filter((entry) => entry.path === '/v1/market/quotes').map((entry) => entry.time);
  return { example, result, config, polls };
}

// --- What the sandbox says, read by the test ---

interface RawQuote {
  bid: string;
  ask: string;
  mid: string;
  timestamp: string;
}

/** The sandbox's answer at `at` for `symbols`, every number as the text it sent. */
async function quotesAt(at: number, symbols: readonly string[], venue?: string): Promise<Map<string, RawQuote>> {
  const before = sb.clock.now();
  sb.clock.set(at);
  try {
    const query = `symbols=${[...new Set(symbols)].map(encodeURIComponent).join(',')}${venue ? `&venue=${venue}` : ''}`;
    const response = await getQuotes(sb.url, token, query);
    expect(response.status).toBe(200);
    const { data } = parse(response.text, null, (number: string) => number) as { data: Array<RawQuote & { symbol: string }> };
    return new Map(data.map((quote) => [quote.symbol, quote]));
  } finally {
    sb.clock.set(before);
  }
}

/** Minor units the fixtures hold: a currency, and how many of them make one. */
const MINOR_UNITS: Record<string, [string, string]> = { GBX: ['GBP', '100'] };
/** ISO 4217's minor units of the bases the examples use. */
const MINOR_PLACES: Record<string, number> = { USD: 2, EUR: 2, GBP: 2, JPY: 0 };
const ONE: Rat = { n: 1n, d: 1n };

/**
 * A valuation's total in `base`, as the README's rules make it: each lot at its price (a long at
 * the bid and a short at the ask for side; cash at 1), converted at the mid of the direct pair, else
 * of its inverse, else through USD; lots with no quote left out.
 */
async function valuationTotal(lots: readonly Lot[], base: string, price: string, at: number): Promise<Rat> {
  const currencies = new Set([base, 'USD', ...lots.map((lot) => MINOR_UNITS[lot.currency!]?.[0] ?? lot.currency!)]);
  const pairs = [...currencies].flatMap((a) => [...currencies].filter((b) => b !== a).map((b) => `${a}${b}`));
  const quotes = await quotesAt(at, [...lots.map((lot) => lot.symbol), ...pairs]);
  const rate = (from: string, to: string): Rat | undefined => {
    if (from === to) return ONE;
    if (MINOR_UNITS[from]) {
      const [major, per] = MINOR_UNITS[from];
      const rest = rate(major, to);
      return rest && ratDiv(rest, rat(per));
    }
    const direct = quotes.get(`${from}${to}`);
    if (direct) return rat(direct.mid);
    const inverse = quotes.get(`${to}${from}`);
    if (inverse) return ratDiv(ONE, rat(inverse.mid));
    const [leg, next] = from === 'USD' || to === 'USD' ? [] : [rate(from, 'USD'), rate('USD', to)];
    return leg && next && ratMul(leg, next);
  };
  const terms = lots.flatMap((lot) => {
    const quote = quotes.get(lot.symbol);
    const negative = lot.quantity.startsWith('-');
    const unit = lot.symbol === lot.currency ? '1' : quote && { mid: quote.mid, bid: quote.bid, ask: quote.ask, side: negative ? quote.ask : quote.bid }[price];
    return unit === undefined ? [] : [ratMul(ratMul(rat(lot.quantity), rat(unit)), rate(lot.currency!, base)!)];
  });
  return ratSum(terms);
}

/** A total as mkt writes it: half-even to `precision`'s places, or in full (README, "Precision"). */
const written = (total: Rat, base: string, precision: string) =>
  precision === 'full' ? fullText(total, MINOR_PLACES[base]!) : roundPlaces(total, precision === 'minor' ? MINOR_PLACES[base]! : Number(precision));

// --- Reading what mkt wrote ---

const COMMANDS = new Set((await helpPage()).commands);
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** The value of `option` in argv (`--base USD`, `--base=USD`); the last one given wins. */
function optionOf(argv: readonly string[], ...names: string[]): string | undefined {
  let value: string | undefined;
  argv.forEach((word, at) => {
    for (const name of names) {
      if (word === name) value = argv[at + 1];
      else if (word.startsWith(`${name}=`)) value = word.slice(name.length + 1);
    }
  });
  return value;
}

const commandOf = (argv: readonly string[]) => argv.find((word) => COMMANDS.has(word));

const isWatch = (argv: readonly string[]) => argv.includes('--watch') || argv.includes('-w');

/**
 * The format a run writes in: its flags; else, for quotes and value, a table on a terminal, and in a
 * pipe TSV, or a watch's NDJSON (quotes) or JSON document per poll (value).
 */
function formatOf(run: MktRun): string | undefined {
  const format = run.argv.includes('--json') ? 'json' : optionOf(run.argv, '-f', '--format');
  const command = commandOf(run.argv);
  if (command !== 'quotes' && command !== 'value') return format;
  return format ?? (run.stdoutIsTTY ? 'table' : !isWatch(run.argv) ? 'tsv' : command === 'quotes' ? 'ndjson' : 'json');
}

/** CSV's cells of one record (RFC 4180: a quoted cell may hold commas and doubled quotes). */
const csvCells = (line: string) => [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((match) => match[1]!.replace(/^"|"$/g, '').replaceAll('""', '"'));

/** The records a run wrote, each a map of its fields, in the machine formats; the table's by its titles. */
function records(format: string, stdout: string): Array<Map<string, string | null>> {
  const rows = (lines: string[][]) => lines.slice(1).map((cells) => new Map(lines[0]!.map((name, at) => [name, cells[at] ?? null])));
  const objects = (items: Array<Record<string, string | null>>) => items.map((item) => new Map(Object.entries(item)));
  const lines = stdout.split('\n').filter((line) => line !== '');
  switch (format) {
    case 'tsv': return rows(lines.map((line) => line.split('\t')));
    case 'csv': return rows(stdout.split('\r\n').filter((line) => line !== '').map(csvCells));
    case 'ndjson': return objects(lines.map((line) => parse(line, null, (number: string) => number) as Record<string, string | null>));
    case 'json': {
      const document = parse(stdout, null, (number: string) => number) as { data?: Array<Record<string, string | null>>; total_base?: string | null };
      return document.data ? objects(document.data) : [new Map([['row', 'total_base'], ['value_base', document.total_base ?? null]])];
    }
    case 'table': {
      // Each table's titles, then its rows: │ EURUSD │ 1.08521 │ ...
      const found: Array<Map<string, string | null>> = [];
      let titles: string[] = [];
      for (const line of plain(stdout).split('\n')) {
        if (!line.startsWith('│')) continue;
        const cells = line.split('│').slice(1, -1).map((cell) => cell.trim());
        if (/^(Symbol|Total)$/.test(cells[0]!)) titles = cells;
        else found.push(new Map(titles.map((title, at) => [title, cells[at] ?? null])));
      }
      return found;
    }
    default: return [];
  }
}

/** What is wrong with a run's output for its format: not the kind it promises. */
function kindProblems(run: MktRun): string[] {
  const format = formatOf(run);
  const out = run.stdout;
  const watch = isWatch(run.argv);
  const parses = (text: string) => {
    try {
      parse(text);
      return true;
    } catch {
      return false;
    }
  };
  const lines = out.split('\n').filter((line) => line !== '');
  const same = (cells: number[]) => cells.length > 0 && cells.every((count) => count === cells[0]);
  switch (format) {
    case 'table': return /^[┌+]/m.test(plain(out)) && /^[└+]/m.test(plain(out)) ? [] : ['is not a table'];
    case 'tsv': return same(lines.map((line) => line.split('\t').length)) && /^[a-z_]+(\t[a-z_]+)*$/.test(lines[0] ?? '') ? [] : ['is not TSV: a header of field names, then lines of as many cells'];
    case 'csv': {
      const csvLines = out.split('\r\n');
      return csvLines.at(-1) === '' && !csvLines.slice(0, -1).some((line) => line.includes('\n')) && same(csvLines.slice(0, -1).map((line) => csvCells(line).length)) && /^[a-z_]+(,[a-z_]+)*$/.test(csvLines[0]!)
        ? [] : ['is not CSV: CRLF lines, a header of field names, then records of as many cells'];
    }
    case 'json': {
      if (!watch) return parses(out) ? [] : ['is not one JSON document'];
      // A watch's: a document per poll, on one line each.
      const polls = Number(optionOf(run.argv, '--count') ?? lines.length);
      return lines.length === polls && lines.every(parses) ? [] : [`is not a JSON document per line, one for each of ${polls} polls`];
    }
    case 'ndjson': return lines.length > 0 && lines.every((line) => parses(line) && line.startsWith('{')) ? [] : ['is not a JSON object per line'];
    default: return run.argv.includes('--print') && !/^\S+\n$/.test(out) ? ['is not one line'] : [];
  }
}

/** Where a run's figures differ from the sandbox's own answer. */
async function figureProblems(run: MktRun): Promise<string[]> {
  const format = formatOf(run);
  const command = commandOf(run.argv);
  if (format === undefined || isWatch(run.argv) || (command !== 'quotes' && command !== 'value')) return [];
  const found = records(format, run.stdout);
  const problems: string[] = [];
  if (command === 'quotes') {
    const field = (row: Map<string, string | null>, name: string) => row.get(name) ?? row.get(name[0]!.toUpperCase() + name.slice(1)) ?? undefined;
    const rows = found.filter((row) => field(row, 'symbol') !== undefined);
    if (rows.length === 0) return run.code === 0 ? ['shows no quote'] : [];
    const raw = await quotesAt(TEST_EPOCH, rows.map((row) => field(row, 'symbol')!), optionOf(run.argv, '--venue'));
    for (const row of rows) {
      for (const name of ['bid', 'ask', 'mid', 'timestamp'] as const) {
        const shown = field(row, name);
        const sent = raw.get(field(row, 'symbol')!)?.[name];
        if (shown !== undefined && shown !== sent) problems.push(`shows ${field(row, 'symbol')} ${name} ${shown} where the sandbox sent ${sent}`);
      }
    }
  }
  if (command === 'value') {
    const named = run.argv.find((word) => FILES[word]?.lots) ?? Object.keys(FILES).find((name) => run.argv.includes('-') && FILES[name]!.text === run.stdin);
    if (named === undefined) return ['values a file whose lots the test does not know: add it, and them, to FILES'];
    const currency = optionOf(run.argv, '--currency');
    const lots = FILES[named]!.lots!.map((lot) => ({ ...lot, currency: lot.currency ?? currency }));
    const base = optionOf(run.argv, '--base')!;
    const precision = optionOf(run.argv, '--precision') ?? (format === 'table' ? 'minor' : 'full');
    const total = written(await valuationTotal(lots, base, optionOf(run.argv, '--price') ?? 'mid', TEST_EPOCH), base, precision);
    const totals = found.filter((row) => row.get('row') === 'total_base' || row.get('Total') === `all, in ${base}`).map((row) => row.get('value_base') ?? row.get(`Value ${base}`));
    const fields = optionOf(run.argv, '--fields');
    const writesTotal = format === 'table' || format === 'json' || fields === undefined || (/\brow\b/.test(fields) && /\bvalue_base\b/.test(fields));
    if (writesTotal && totals.length !== 1) problems.push(`writes ${totals.length} totals in the base, not 1`);
    for (const shown of totals) if (shown !== null && shown?.replaceAll(',', '') !== total) problems.push(`writes the total in ${base} as ${shown} where it is ${total}`);
  }
  return problems;
}

/** The exit codes an example's comment allows: 0, and N for `exit N if ...`. */
const allowedCodes = (example: HelpExample) => [0, ...[...example.comment.matchAll(/\bexit (\d+)\b/g)].map((match) => Number(match[1]))];

const WHY = 'if it is not meant to end by itself, or needs a person at a terminal, mark it where it is written: its comment ends in (long-running) or (interactive) (README, Development)';

/** Everything wrong with an example as it ran: its exit, its runs of mkt, their output and figures. */
async function problemsOf({ example, result }: Ran): Promise<string[]> {
  const problems: string[] = [];
  const allowed = allowedCodes(example);
  if (result.code === null) problems.push(`did not end in 30 s; ${WHY}`);
  else if (result.code === 127) problems.push(`runs a program the test has not got (${result.stderr.trim()}); if it sets up another program, mark it where it is written: its comment ends in (set-up)`);
  else if (!allowed.includes(result.code)) problems.push(`exited ${result.code}, not ${allowed.join(' or ')}: ${result.stderr.trim().slice(0, 400)}`);
  if (result.runs.length === 0 && /(^|[|;&(]\s*|\$\()mkt\b/.test(example.command)) problems.push('ran no mkt');
  for (const run of result.runs) {
    const name = `mkt ${run.argv.join(' ')}`;
    if (run.stopped) problems.push(`${name}: did not end (stopped after ${run.stopped === 'sleeps' ? '200 polls or waits' : '30 s'}); ${WHY}`);
    else if (/unexpected prompt/.test(run.stderr)) problems.push(`${name}: asked at a prompt; ${WHY}`);
    else if (!allowed.includes(run.code)) problems.push(`${name}: exited ${run.code}, not ${allowed.join(' or ')}: ${run.stderr.trim().slice(0, 400)}`);
    else if (run.code === 0 && /^error: /m.test(run.stderr)) problems.push(`${name}: exited 0 with an error: ${run.stderr}`);
    if (run.stopped || !allowed.includes(run.code)) continue;
    const kind = kindProblems(run);
    problems.push(...kind.map((problem) => `${name}: its output ${problem}`));
    if (kind.length === 0) problems.push(...(await figureProblems(run)).map((problem) => `${name}: ${problem}`));
  }
  // Through a pipe: something, no null, and every number as mkt wrote it (not a double's digits, as jq 1.6's).
  const unquoted = example.command.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "''");
  if (/\|/.test(unquoted) && result.runs.some((run) => !run.stdoutIsTTY)) {
    const written = result.runs.map((run) => run.stdout).join('\n');
    if (result.stdout.trim() === '') problems.push('printed nothing through its pipe');
    if (/^null$/m.test(result.stdout)) problems.push('printed null through its pipe: no such field, or one without a value');
    // Words of digits, signs and points (a date's 2025-01-06 is one, and no number).
    const numbers = result.stdout.split(/[^\w.+-]+/).filter((word) => /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(word));
    for (const number of new Set(numbers)) {
      if (!new RegExp(`(^|[^\\w.])${number.replaceAll('.', '\\.').replaceAll('+', '\\+')}($|[^\\w.])`).test(written)) problems.push(`printed ${number} through its pipe, a number mkt did not write`);
    }
  }
  // `> FILE`: the file holds what mkt wrote, the terminal nothing.
  const named = /\s>\s*(\S+)$/.exec(unquoted)?.[1];
  if (named !== undefined && result.runs.length > 0) {
    const file = named.replace(/^~\//, `${HOME}/`);
    const written = fs.existsSync(path.resolve(work, file)) ? fs.readFileSync(path.resolve(work, file), 'utf8') : undefined;
    if (written !== result.runs.at(-1)!.stdout) problems.push(`${named} does not hold what mkt wrote`);
    if (result.stdout !== '') problems.push('wrote on the terminal as well as to the file');
  }
  return problems;
}

// --- What a pipe or a file ends with, exactly ---

const VALUE_TOTAL_EUR_SIDE = "mkt value portfolio.csv --base EUR --price side --format tsv --fields row,value_base | awk -F'\\t' '$1 == \"total_base\" {print $2}'";
const VALUE_WATCH_TOTALS = "mkt value portfolio.csv --base USD --watch --count 10 --format tsv --fields row,value_base | awk -F'\\t' '$1 == \"total_base\" {print $2}'";
const mid = async (symbol: string) => `${(await quotesAt(TEST_EPOCH, [symbol])).get(symbol)!.mid}\n`;
const portfolio = FILES['portfolio.csv']!.lots!;

/** What the terminal shows after the example, by the example; each worked out here, not read from mkt. */
const EXACT: Record<string, (ran: Ran) => string | Promise<string>> = {
  "mkt quotes EURUSD --json | jq '.data[0].mid'": () => mid('EURUSD'),
  "mkt quotes EURUSD --json | jq -r '.data[0].mid'": () => mid('EURUSD'),
  [VALUE_TOTAL_EUR_SIDE]: async () => `${written(await valuationTotal(portfolio, 'EUR', 'side', TEST_EPOCH), 'EUR', 'full')}\n`,
  "mkt value portfolio.csv --base USD --json | jq -r '.missing[]'": () => 'NOSUCH\n',
  // A line per poll: the total at the instant the sandbox answered it.
  [VALUE_WATCH_TOTALS]: async ({ polls }) => {
    expect(polls).toHaveLength(10);
    let lines = '';
    for (const at of polls) lines += `${written(await valuationTotal(portfolio, 'USD', 'mid', at), 'USD', 'full')}\n`;
    return lines;
  },
  'mkt token --json | jq .expires_in': () => '3600\n',
  'mkt status --json | jq .token.expires_in_seconds': () => '3600\n',
  'mkt config get base-url': () => 'https://api.example.com\n',
  'mkt config list': () => 'base-url=https://api.example.com\norg=org_demo\ntoken=(stored, via cli-login)\n',
  'mkt config path': ({ config }) => `${path.join(config, 'config.json')}\n`,
  'mkt login --with-api-key --org org_demo < key.txt': () => '',
  'export TOKEN=$(mkt token --client-id ci --with-client-secret --print < secret.txt)': () => '',
};

// --- The tests ---

const examples = await helpExamples();
const runnable = examples.filter((example) => example.mark === undefined);
// An example through jq is skipped where there is none, saying so (as test/cli/commands/readme-jq.test.ts is).
const jq = spawnSync('sh', ['-c', 'command -v jq']).status === 0;
if (!jq) console.warn('test/cli/help-examples.test.ts: no jq here, the examples that pipe into it are skipped');
const usesJq = (example: HelpExample) => /\|\s*jq\b/.test(example.command);

describe('the help examples', () => {
  it('are read from every page that has any, and those not run are marked by the one rule', async () => {
    const pages = new Set(examples.map((example) => example.page));
    for (const [words, { text }] of await everyHelpPage()) if (/^Examples:$/m.test(text)) expect(pages).toContain(`mkt ${[...words, '--help'].join(' ')}`);
    // How to load and install completion, written as examples too; the topics are read, though they have none.
    expect(pages).toContain('mkt completion --help');
    expect(await helpTopics()).toEqual(['exit-codes', 'environment']);
    expect(runnable.length).toBeGreaterThanOrEqual(30);
    // Each mark is in use; no comment ends in a parenthesis that looks like a mark and is not one.
    for (const mark of EXAMPLE_MARKS) expect(examples.some((example) => example.mark === mark)).toBe(true);
    for (const example of examples) expect(example.mark === undefined && /\((interactive|long[ -]?running|set[ -]?up)\)$/i.test(example.comment)).toBe(false);
    // EXACT names examples that are run.
    for (const command of Object.keys(EXACT)) expect(runnable.map((example) => example.command)).toContain(command);
  });

  it.for(runnable.map((example): [string, HelpExample] => [`${example.page}: ${example.command}`, example]))('%s', { timeout: 90_000 }, async ([, example], { skip }) => {
    if (usesJq(example) && !jq) skip('no jq here');
    const ran = await run(example);
    const problems = await problemsOf(ran);
    const exact = EXACT[example.command];
    if (exact !== undefined) {
      const expected = await exact(ran);
      if (ran.result.stdout !== expected) problems.push(`printed ${JSON.stringify(ran.result.stdout)}, not ${JSON.stringify(expected)}`);
    }
    expect(problems.join('\n')).toBe('');
  });

  it.each([
    ['asks at a prompt', 'mkt login --org org_demo', /asked at a prompt; .*\(interactive\)/],
    ['does not end', 'mkt quotes EURUSD --watch --format csv', /did not end \(stopped after 200 polls or waits\); .*\(long-running\)/],
    ['fails', 'mkt quotes =EURUSD', /exited 2, not 0: error: /],
    ['exits with a code its comment does not give', 'mkt value portfolio.csv --base USD --strict', /exited 3, not 0/],
  ])('an example that is not marked and %s is refused, saying so', async (_name, command, problem) => {
    const ran = await run({ page: 'planted', command, comment: '', mark: undefined });
    expect((await problemsOf(ran)).join('\n')).toMatch(problem);
  }, 90_000);

  it.each([
    ['CSV with LF line ends', { argv: ['quotes', 'EURUSD', '--format', 'csv'], stdout: 'symbol,bid\nEURUSD,0.00001\n' }, /its output is not CSV/],
    ['JSON that does not parse', { argv: ['quotes', 'EURUSD', '--json'], stdout: '{"data": [' }, /its output is not one JSON document/],
    ['no table on a terminal', { argv: ['quotes', 'EURUSD'], stdoutIsTTY: true, stdout: 'symbol\tbid\nEURUSD\t0.00001\n' }, /its output is not a table/],
    ['a bid the sandbox did not send', { argv: ['quotes', 'EURUSD', '--format', 'csv'], stdout: 'symbol,bid\r\nEURUSD,0.00001\r\n' }, /shows EURUSD bid 0.00001 where the sandbox sent \d/],
    ['a total that is not the sum', { argv: ['value', 'portfolio.tsv', '--base', 'USD', '--json'], stdout: '{"total_base": 1}' }, /writes the total in USD as 1 where it is \d/],
  ])('a run whose output is %s is refused', async (_name, written, problem) => {
    sb.clock.set(TEST_EPOCH);
    const ran: Ran = { example: { page: 'planted', command: `mkt ${written.argv.join(' ')}`, comment: '', mark: undefined }, config: '', polls: [], result: {
      code: 0, stdout: written.stdout, stderr: '', runs: [{ stdin: '', stdinIsTTY: false, stdoutIsTTY: false, code: 0, stderr: '', ...written }],
    } };
    expect((await problemsOf(ran)).join('\n')).toMatch(problem);
  });
});
