// `mkt mcp` against the sandbox, through the SDK's own client: one server process for the file,
// started without credentials (then `mkt login` runs beside it), every tool called with good and
// bad input, the server answering after each error, and exit 0 when the client closes its stdin.
// The sandbox's clock stands still, so every call sees the same prices; expected values are worked
// out here from the quotes, with big.js.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import BigJs from 'big.js';
import { parse as parseLossless, isLosslessNumber } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/sandbox/index.js';
import { runBin } from '../../helpers/bin.js';
import { tempDir } from '../../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { fullText, rat, ratDiv, ratSum, roundPlaces } from '../../helpers/decimal-oracle.js';
import { errorJson, errorText, startMcp, structured, type McpProcess } from '../../helpers/mcp-process.js';

/** A decimal of its own, with room for an inverse rate's 34 significant digits. */
const Big = BigJs();
Big.DP = 80;

interface Quote { symbol: string; bid: string; ask: string; mid: string; timestamp: string }
interface Quotes { data: Quote[]; missing: string[]; unasked: string[] }

let sandbox: TestSandbox;
let server: McpProcess;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  env = { MKT_BASE_URL: sandbox.url, MKT_ORG: DEMO.org, MKT_CONFIG_DIR: path.join(tempDir(), 'cfg') };
  server = await startMcp(env);
});

afterAll(async () => {
  await server?.close();
  await sandbox?.close();
});

const quotes = async (symbols: string[]) => structured<Quotes>(await server.call('get_quotes', { symbols }));
const bySymbol = (data: Quote[]) => new Map(data.map((quote) => [quote.symbol, quote]));

describe('tools/list', () => {
  it('lists four read-only tools, each with its required input, an output schema, and prices declared as strings', async () => {
    const { tools } = await server.client.listTools();
    const named = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...named.keys()]).toEqual(['get_quotes', 'value_portfolio', 'check_quotes', 'auth_status']);
    const required = (name: string) => named.get(name)!.inputSchema.required ?? [];
    expect(required('get_quotes')).toEqual(['symbols']);
    expect(required('value_portfolio')).toEqual(['positions', 'base']);
    expect(required('check_quotes')).toEqual(['symbols', 'checks']);
    expect(required('auth_status')).toEqual([]);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.annotations?.destructiveHint, tool.name).toBe(false);
      expect(tool.description, tool.name).toMatch(/never logs in, logs out or changes mkt's settings/);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      // A misspelt argument is refused, not ignored.
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    }
    expect(named.get('auth_status')!.annotations?.openWorldHint).toBe(false);
    expect(named.get('get_quotes')!.annotations?.openWorldHint).toBe(true);

    type Schema = { type?: unknown; pattern?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };
    const at = (schema: Schema | undefined, ...keys: string[]): Schema => keys.reduce<Schema>((s, key) => (key === '[]' ? s.items! : s.properties![key]!), schema!);
    // A string in JSON's number syntax, or (where there may be none) that or null: never a number.
    const isDecimalString = (schema: Schema) => {
      const [text, ...rest] = schema.anyOf ?? [schema];
      expect(rest.map((other) => other.type)).toEqual(schema.anyOf ? ['null'] : []);
      expect(text!.type).toBe('string');
      expect(new RegExp(text!.pattern!).test('1.084150000000000001')).toBe(true);
      expect(new RegExp(text!.pattern!).test('1,08')).toBe(false);
    };
    const output = (name: string) => named.get(name)!.outputSchema as Schema;
    for (const price of ['bid', 'ask', 'mid']) isDecimalString(at(output('get_quotes'), 'data', '[]', price));
    for (const price of ['bid', 'ask', 'mid']) isDecimalString(at(output('check_quotes'), 'data', '[]', price));
    for (const amount of ['quantity', 'price', 'value', 'value_base', 'cost', 'pnl', 'pnl_base']) isDecimalString(at(output('value_portfolio'), 'positions', '[]', amount));
    // As mkt value --json: a position's rate is its currency's, in fx and totals.
    expect(Object.keys(at(output('value_portfolio'), 'positions', '[]').properties!)).not.toContain('rate');
    isDecimalString(at(output('value_portfolio'), 'total_base'));
    isDecimalString(at(output('value_portfolio'), 'fx', '[]', 'rate'));
    // The fields a quote may be asked for, named in the schema.
    expect(at(named.get('get_quotes')!.inputSchema as Schema, 'fields', '[]')).toMatchObject({ enum: ['symbol', 'bid', 'ask', 'mid', 'timestamp'] });
  });
});

describe('credentials', () => {
  it('says what to run when there are none, and serves the next call once mkt login has run beside it', async () => {
    const status = structured<{ usable: boolean; problems: string[]; token: { present: boolean } }>(await server.call('auth_status'));
    expect(status.usable).toBe(false);
    expect(status.token.present).toBe(false);
    expect(status.problems.join('\n')).toContain('`mkt login`');

    const refused = await server.call('get_quotes', { symbols: ['EURUSD'] });
    expect(errorText(refused)).toContain('error: not logged in: no stored token');
    expect(errorText(refused)).toContain('hint: the user runs `mkt login` (an API key) or `mkt token` (client credentials) in a terminal, which the next call uses; or put MKT_TOKEN in the server\'s env');
    expect(errorJson(refused)).toMatchObject({ code: 'NOT_AUTHENTICATED', exit_code: 4, status: null });

    const login = await runBin(['login', '--org', DEMO.org], { env: { ...env, MKT_API_KEY: DEMO.apiKey } });
    expect(login.code, login.stderr).toBe(0);
    const after = structured<{ usable: boolean; token: { obtained_via: string; fingerprint: string } }>(await server.call('auth_status'));
    expect(after).toMatchObject({ usable: true, token: { obtained_via: 'cli-login' } });
    expect(after.token.fingerprint).toMatch(/^sha256:[0-9a-f]{12}$/);
    expect((await quotes(['EURUSD'])).data[0]!.symbol).toBe('EURUSD');
  });
});

describe('get_quotes', () => {
  it('gives what mkt quotes --json gives, prices as decimal strings, and the symbols it has no quote for', async () => {
    const result = await quotes(['eurusd', 'AAPL', 'EURUSD', 'NOSUCH']);
    expect(result.data.map((quote) => quote.symbol)).toEqual(['EURUSD', 'AAPL']);
    expect(result.missing).toEqual(['NOSUCH']);
    expect(result.unasked).toEqual([]);
    const cli = await runBin(['quotes', 'EURUSD', 'AAPL', '--json'], { env });
    expect(cli.code, cli.stderr).toBe(0);
    // mkt's JSON read without a double in between: each price as the digits written.
    const written = parseLossless(cli.stdout, null, (value) => value) as { data: Array<Record<string, unknown>> };
    const asText = written.data.map((quote) => Object.fromEntries(Object.entries(quote).map(([key, value]) => [key, isLosslessNumber(value) ? value.toString() : value])));
    expect(result.data).toEqual(asText);
    for (const quote of result.data) for (const price of [quote.bid, quote.ask, quote.mid]) expect(typeof price).toBe('string');
  });

  it('writes the fields asked for, in their order', async () => {
    const result = structured<{ data: Array<Record<string, string>> }>(await server.call('get_quotes', { symbols: ['AAPL', 'EURUSD'], fields: ['bid', 'symbol'] }));
    expect(result.data.map((quote) => Object.keys(quote))).toEqual([['bid', 'symbol'], ['bid', 'symbol']]);
    expect(result.data.map((quote) => quote.symbol)).toEqual(['AAPL', 'EURUSD']);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['a symbol with a space', { symbols: ['EURUSD', 'A B'] }, ['error: invalid symbol: "A B"', 'hint: a symbol is 1 to 32 visible ASCII characters']],
    ['symbols a spreadsheet would run', { symbols: ['EURUSD', '=HYPERLINK("x")', '@SUM(1)'] }, ['error: invalid symbols: "=HYPERLINK(\\"x\\")", "@SUM(1)": no market\'s symbol starts with =, +, - or @']],
    ['no symbols', { symbols: [' ', ''] }, ['error: no symbols given']],
    ['an empty list', { symbols: [] }, ['symbols']],
    ['an unknown field', { symbols: ['EURUSD'], fields: ['bid', 'spread'] }, ['unknown field "spread"; valid fields: symbol, bid, ask, mid, timestamp']],
    ['a field twice', { symbols: ['EURUSD'], fields: ['bid', 'bid'] }, ['error: fields: bid is given twice']],
    ['a venue with a space', { symbols: ['EURUSD'], venue: 'X NAS' }, ['error: venue must be 1 to 64 visible ASCII characters']],
    ['a misspelt argument', { symbol: ['EURUSD'] }, ['symbol']],
  ])('refuses %s as an error result, and answers the next call', async (_name, args, words) => {
    const text = errorText(await server.call('get_quotes', args));
    for (const word of words) expect(text).toContain(word);
    expect((await quotes(['EURUSD'])).data).toHaveLength(1);
  });

  it('words a bad symbol as mkt quotes does', async () => {
    const cli = await runBin(['quotes', 'A B'], { env });
    expect(cli.code).toBe(2);
    const text = errorText(await server.call('get_quotes', { symbols: ['A B'] }));
    expect(text).toBe(cli.stderr);
  });
});

describe('check_quotes', () => {
  it('decides each check on the exact prices and says which held for which symbol', async () => {
    const sent = bySymbol((await quotes(['EURUSD', 'AAPL'])).data);
    const result = structured<{ held: boolean; message: string; checks: Array<{ expression: string; held: boolean; results: Array<{ symbol: string; held: boolean; actual: string | null; reason?: string }> }> }>(
      await server.call('check_quotes', { symbols: ['EURUSD', 'AAPL', 'NOSUCH'], checks: ['EURUSD.bid > 0', 'spread < 0'] }),
    );
    const spread = (symbol: string) => new Big(sent.get(symbol)!.ask).minus(sent.get(symbol)!.bid);
    expect(result.held).toBe(false);
    expect(result.message).toBe('1 of 2 checks failed (3 failures)');
    expect(result.checks[0]).toMatchObject({ expression: 'EURUSD.bid > 0', held: true, results: [{ symbol: 'EURUSD', held: true, actual: sent.get('EURUSD')!.bid }] });
    const [eurusd, aapl, nosuch] = result.checks[1]!.results;
    expect(result.checks[1]!.held).toBe(false);
    expect(eurusd).toMatchObject({ symbol: 'EURUSD', held: false, reason: 'not_met' });
    expect(new Big(eurusd!.actual!).eq(spread('EURUSD'))).toBe(true);
    expect(aapl).toMatchObject({ symbol: 'AAPL', held: false, reason: 'not_met' });
    expect(new Big(aapl!.actual!).eq(spread('AAPL'))).toBe(true);
    expect(nosuch).toMatchObject({ symbol: 'NOSUCH', held: false, actual: null, reason: 'no_row' });

    const held = structured<{ held: boolean; message: string }>(await server.call('check_quotes', { symbols: ['EURUSD'], checks: ['mid > 0'] }));
    expect(held).toMatchObject({ held: true, message: 'the check held' });
  });

  it.each<[string, string[], string]>([
    ['no operator', ['EURUSD.bid'], 'error: check "EURUSD.bid"'],
    ['an unknown field', ['EURUSD.price > 1'], 'unknown field "price"; the fields: bid, ask, mid, spread, spread_bps, age'],
    ['a symbol not asked for', ['GBPUSD.bid > 1'], 'GBPUSD is not among the symbols asked for'],
    ['a decimal for the age', ['age < 30'], 'age is a duration'],
    ['a symbol a spreadsheet would run', ['-EURUSD.bid > 1'], '"-EURUSD" is not a symbol: no market\'s symbol starts with =, +, - or @'],
  ])('refuses %s before any request, and answers the next call', async (_name, checks, words) => {
    const result = await server.call('check_quotes', { symbols: ['EURUSD'], checks });
    expect(errorText(result)).toContain(words);
    expect(errorJson(result)).toMatchObject({ code: 'USAGE', exit_code: 2 });
    expect((await quotes(['EURUSD'])).data).toHaveLength(1);
  });
});

describe('value_portfolio', () => {
  it('values positions in several currencies in the base currency, exactly', async () => {
    const sent = bySymbol((await quotes(['VOD.L', 'SAP.DE', '7203.T', 'AAPL', 'GBPUSD', 'EURUSD', 'USDJPY'])).data);
    const mid = (symbol: string) => new Big(sent.get(symbol)!.mid);
    const result = structured<{
      base: string; positions: Array<{ symbol: string; value: string | null; value_base: string | null; pnl: string | null; status: string }>;
      total_base: string; missing: string[]; incomplete: boolean; fx: Array<{ from: string; method: string; rounded: boolean }>;
    }>(await server.call('value_portfolio', {
      base: 'USD',
      positions: [
        { symbol: 'VOD.L', quantity: '1000', currency: 'GBX' },
        { symbol: 'SAP.DE', quantity: 3, currency: 'EUR' },
        { symbol: '7203.T', quantity: '-200', currency: 'JPY' },
        { symbol: 'AAPL', quantity: '0.1', cost: '150.25' },
        { symbol: 'USD', quantity: '250.75' },
        { symbol: 'NOSUCH', quantity: '5' },
      ],
      currency: 'USD',
    }));
    // Rates, as the valuation is documented: a direct pair's mid; an inverse, exact; GBX a hundredth
    // of GBP. Each figure is the exact value at full: its digits, or 34 significant ones.
    const text = (value: Big) => value.toFixed();
    const exact = [
      rat(text(mid('VOD.L').times(1000).times(mid('GBPUSD')).times('0.01'))),
      rat(text(mid('SAP.DE').times(3).times(mid('EURUSD')))),
      ratDiv(rat(text(mid('7203.T').times(-200))), rat(text(mid('USDJPY')))),
      rat(text(mid('AAPL').times('0.1'))),
      rat('250.75'),
    ];
    const [vod, sap, toyota, aapl, cash, nosuch] = result.positions;
    expect(toyota!.value_base).toBe(fullText(exact[2]!, 0));
    for (const [position, value] of [[vod, exact[0]], [sap, exact[1]], [toyota, exact[2]], [aapl, exact[3]], [cash, exact[4]]] as const) {
      expect(position!.status, position!.symbol).toBe('ok');
      expect(new Big(position!.value_base!).eq(fullText(value!, 0)), `${position!.symbol}: ${position!.value_base} = ${fullText(value!, 0)}`).toBe(true);
    }
    expect(new Big(aapl!.pnl!).eq(mid('AAPL').minus('150.25').times('0.1'))).toBe(true);
    expect(nosuch).toMatchObject({ symbol: 'NOSUCH', status: 'missing', value: null, value_base: null });
    expect(result.missing).toEqual(['NOSUCH']);
    expect(result.incomplete).toBe(true);
    // The exact total, rounded once.
    expect(new Big(result.total_base).eq(fullText(ratSum(exact), 0)), `${result.total_base} = ${fullText(ratSum(exact), 0)}`).toBe(true);
    expect(result.fx.find((rate) => rate.from === 'JPY')).toMatchObject({ method: 'inverse', rounded: true });
  });

  it('gives the document mkt value --json writes, member for member and in its order, each decimal as the string of its digits', async () => {
    const positions = [
      { symbol: 'AAPL', quantity: '10', currency: 'USD', cost: '150.25' },
      { symbol: 'SAP.DE', quantity: '3', currency: 'EUR' },
      { symbol: '7203.T', quantity: '-200', currency: 'JPY', cost: '2500' },
      { symbol: 'VOD.L', quantity: '1000', currency: 'GBX' },
      { symbol: 'SEK', quantity: '100', currency: 'SEK' },
      { symbol: 'NOSUCH', quantity: '1', currency: 'USD' },
    ];
    const file = path.join(tempDir(), 'positions.json');
    writeFileSync(file, JSON.stringify(positions));
    // The sandbox's clock stands still: both see the same prices.
    const cli = await runBin(['value', file, '--base', 'USD', '--json'], { env });
    expect(cli.code, cli.stderr).toBe(0);
    const tool = structured<Record<string, unknown>>(await server.call('value_portfolio', { base: 'USD', positions }));

    // mkt's JSON with each number literal as its digits; the tool's with its numbers (counts) as theirs.
    const written = parseLossless(cli.stdout, null, (digits: string) => digits);
    const numbers: string[] = [];
    const asText = (value: unknown, at: string): unknown => {
      if (typeof value === 'number') {
        numbers.push(at);
        return String(value);
      }
      if (Array.isArray(value)) return value.map((item, i) => asText(item, `${at}[${i}]`));
      if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, asText(member, `${at}.${key}`)]));
      return value;
    };
    // The same keys in the same order at every level, the same values: JSON.stringify keeps the order.
    expect(JSON.stringify(asText(tool, ''), null, 2)).toBe(JSON.stringify(written, null, 2));
    // Only the counts are JSON numbers; every amount is a string.
    expect(numbers.length).toBeGreaterThan(0);
    for (const at of numbers) expect(at).toMatch(/^\.totals\[\d+\]\.positions$/);

    // What the comparison covers: a position with no cost has null cost and P&L, as mkt writes them;
    // no position has a rate; a currency with no route and a symbol with no quote are there.
    const valued = tool.positions as Array<Record<string, unknown>>;
    expect(valued[1]).toMatchObject({ symbol: 'SAP.DE', cost: null, pnl: null, pnl_base: null, status: 'ok' });
    expect(valued.every((position) => !('rate' in position))).toBe(true);
    expect(valued.map((position) => position.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'no_route', 'missing']);
    expect(Object.keys(tool)).toEqual(['base', 'price', 'precision', 'as_of', 'positions', 'total_base', 'total_pnl_base', 'incomplete', 'missing', 'no_route', 'unusable', 'totals', 'fx']);
    // At full, as --json: the default of both.
    expect(tool.precision).toBe('full');
  });

  it('takes a precision, as --precision does: minor writes each currency\'s minor units, the total the exact total rounded once', async () => {
    const positions = [{ symbol: '7203.T', quantity: '-200', currency: 'JPY' }, { symbol: 'USD', quantity: '0.125', currency: 'USD' }];
    const full = structured<{ total_base: string; positions: Array<{ value: string; value_base: string }> }>(await server.call('value_portfolio', { base: 'USD', positions }));
    const minor = structured<{ precision: string; total_base: string; positions: Array<{ value: string; value_base: string }> }>(await server.call('value_portfolio', { base: 'USD', positions, precision: 'minor' }));
    expect(minor.precision).toBe('minor');
    // JPY in whole yen; 0.125 USD is 0.12 (half-even); the total from the exact total.
    expect(minor.positions[0]!.value).toBe(roundPlaces(rat(full.positions[0]!.value), 0));
    expect(minor.positions[1]!.value_base).toBe('0.12');
    expect(minor.total_base).toBe(roundPlaces(rat(full.total_base), 2));
    const places = structured<{ precision: number; total_base: string }>(await server.call('value_portfolio', { base: 'USD', positions, precision: 4 }));
    expect(places).toMatchObject({ precision: 4, total_base: roundPlaces(rat(full.total_base), 4) });
    expect(errorText(await server.call('value_portfolio', { base: 'USD', positions, precision: 35 }))).toMatch(/precision/);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a fraction as a JSON number', { base: 'USD', positions: [{ symbol: 'AAPL', quantity: 0.1, currency: 'USD' }] }, 'give a decimal string, such as "0.25"'],
    ['a quantity that is not a decimal', { base: 'USD', positions: [{ symbol: 'AAPL', quantity: '1,000', currency: 'USD' }] }, 'positions, position 1: quantity "1,000" is not a decimal number'],
    ['no currency', { base: 'USD', positions: [{ symbol: 'AAPL', quantity: '1' }] }, 'positions, position 1: AAPL has no currency, and no default currency was given'],
    ['a member a position does not have', { base: 'USD', positions: [{ symbol: 'AAPL', qty: '1', currency: 'USD' }] }, 'qty'],
    ['a currency nobody issues', { base: 'USD', positions: [{ symbol: 'AAPL', quantity: '1', currency: 'XYZ' }] }, 'currency "XYZ"'],
    ['a base that is not a currency', { base: 'dollars', positions: [{ symbol: 'AAPL', quantity: '1', currency: 'USD' }] }, 'base "dollars"'],
    ['a price rule it does not know', { base: 'USD', price: 'last', positions: [{ symbol: 'AAPL', quantity: '1', currency: 'USD' }] }, 'price'],
    ['no positions', { base: 'USD', positions: [] }, 'positions'],
    ['a symbol a spreadsheet would run', { base: 'USD', positions: [{ symbol: 'AAPL', quantity: '1', currency: 'USD' }, { symbol: '+1', quantity: '1', currency: 'USD' }] }, 'positions, position 2: symbol "+1" is not a symbol: no market\'s symbol starts with =, +, - or @'],
  ])('refuses %s as an error result, and answers the next call', async (_name, args, words) => {
    expect(errorText(await server.call('value_portfolio', args))).toContain(words);
    expect((await quotes(['EURUSD'])).data).toHaveLength(1);
  });
});

describe('the end', () => {
  it('ends with exit 0 when the client closes its stdin, its stderr free of any token', async () => {
    const ended = await server.close();
    expect(ended).toEqual({ code: 0, signal: null });
    expect(server.stderr()).not.toMatch(/access_token|Bearer [A-Za-z0-9]/);
  });
});
