// What `mkt value` reads and checks before any request, and the one call that values it: the
// positions file (or standard input) read whole under the positions cap, parsed and checked (a bad
// file is exit 2 naming the file and each problem's line; what was ignored or skipped, a warning),
// the base checked, and the request built. A watch of
// a valuation prepares once and calls valueOnce at each poll.
import { parsePositions, valuationSymbols, type Client, type ParsePositionsOptions, type Position, type PriceRule, type ValuePortfolioInput, type ValuePortfolioResult } from '../../api/index.js';
import { parseInteger } from '../../shared/integer.js';
import { MAX_BATCH_SIZE, MAX_CONCURRENCY, MAX_POSITIONS, MAX_POSITIONS_FILE_BYTES } from '../../shared/limits.js';
import { readBytesLimited, readFileBytesLimited } from '../../shared/read-limited.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../errors/errors.js';
import { parseColumnsFlag } from './parse-columns-flag.js';
import { diagnosticsOf } from '../output/diagnostics.js';
import { positionsWarning } from './positions-words.js';
import type { ValueOptions } from './value-options.js';

/** A valuation ready to fetch: what it asks for, and what its checks and messages need. */
export interface PreparedValue {
  /** The request of each valuation (a poll of a watch, or the one of a plain run). */
  request: Omit<ValuePortfolioInput, 'onProgress'>;
  /** What the file is called in messages: its name, or `standard input`. */
  source: string;
  /** The symbols of round one (instruments and direct pairs): what a rate-limit message counts. */
  symbolCount(): number;
  /** The positions' currencies, each once, in first-seen order (a check's total_<currency>). */
  currencies: string[];
  /** The positions' symbols, upper-cased, each once: what a check may name. Worked out when first asked for. */
  keys(): readonly string[];
}

/** Reads FILE (`-`: standard input) and checks it and the flags, before any request. */
export async function prepareValue(deps: Deps, file: string, options: ValueOptions): Promise<PreparedValue> {
  const base = options.base?.trim();
  if (base === undefined || base === '') {
    throw new UsageError('mkt value needs --base: the currency to value the positions in', 'for example --base USD (an ISO 4217 code, or a minor unit such as GBX)');
  }
  const batchSize = options.batchSize === undefined ? undefined : parseInteger(options.batchSize, '--batch-size', { min: 1, max: MAX_BATCH_SIZE });
  const concurrency = options.concurrency === undefined ? undefined : parseInteger(options.concurrency, '--concurrency', { min: 1, max: MAX_CONCURRENCY });
  // The flags first: a --columns that cannot be read is refused before the file is.
  const columns = options.columns === undefined ? undefined : parseColumnsFlag(options.columns);
  const { bytes, source } = await readPositionsBytes(deps, file);
  const parse: ParsePositionsOptions = {
    source, format: options.inputFormat as ParsePositionsOptions['format'], columns, decimalComma: options.decimalComma, encoding: options.encoding?.trim(),
    // Said once, before anything is fetched, a watch's included.
    onWarning: (warning) => diagnosticsOf(deps).warn(positionsWarning(warning)),
  };
  if (options.currency !== undefined) parse.defaultCurrency = options.currency.trim();
  refuseTooMany(bytes, source);
  const positions: Position[] = parsePositions(bytes, parse);
  if (positions.length > MAX_POSITIONS) {
    throw new UsageError(`${source} holds ${positions.length.toLocaleString('en-US')} positions; mkt value takes at most ${MAX_POSITIONS.toLocaleString('en-US')}`,
      'value the book in parts (split -l), or sum the lots of each symbol first: a valuation keeps every position in memory');
  }
  // The base checked before any request (a token request included): no currency is exit 2 here.
  valuationSymbols([], base);
  let keys: string[] | undefined;
  return {
    request: { positions, base, price: options.price as PriceRule | undefined, batchSize, concurrency },
    source,
    // Counted only for a message that needs it: another pass over every position.
    symbolCount: () => valuationSymbols(positions, base).length,
    currencies: [...new Set(positions.map((position) => position.currency))],
    keys: () => (keys ??= [...new Set(positions.map((position) => position.symbol.toUpperCase()))]),
  };
}

/** The file's bytes: the positions reader decodes them (UTF-8, UTF-16 by its byte-order mark, or --encoding). */
async function readPositionsBytes(deps: Deps, file: string): Promise<{ bytes: Buffer; source: string }> {
  if (file === '-') {
    if (deps.io.stdinIsTTY) throw new UsageError('mkt value - reads the positions from standard input, which is a terminal', 'pipe them in: mkt value - --base USD < portfolio.csv');
    return { bytes: await readBytesLimited(deps.io.stdin, { plural: 'the positions on standard input' }, MAX_POSITIONS_FILE_BYTES, deps.signal), source: 'standard input' };
  }
  return { bytes: await readFileBytesLimited(file, file, MAX_POSITIONS_FILE_BYTES, deps.signal), source: file };
}

/**
 * One valuation: the quotes it needs, fetched, and the positions valued against them. `also`: a
 * progress callback, and for a poll of a watch the cross legs and batch size the first poll found.
 */
export function valueOnce(client: Client, prepared: PreparedValue, also: Pick<ValuePortfolioInput, 'onProgress' | 'prefetch' | 'batchSize' | 'precision' | 'rateDigits'> = {}): Promise<ValuePortfolioResult> {
  return client.valuePortfolio({ ...prepared.request, ...also, batchSize: also.batchSize ?? prepared.request.batchSize });
}

/**
 * A file too large to be a book mkt values, refused before it is parsed (a 16 MiB file of 1.9
 * million one-line positions took 900 MB to parse only to be refused), by what it is counted in and
 * said so: more lines than MAX_POSITIONS and a thousand more (a header, titles, blank and total
 * lines), or, as JSON, more objects that start an array's element (`{` after `[` or `,`: a
 * position's, not an object a position holds) than MAX_POSITIONS. What is within that is parsed,
 * and then held to MAX_POSITIONS itself.
 */
function refuseTooMany(bytes: Buffer, source: string): void {
  // JSON's first character, past a byte-order mark and spaces; a line is a 0x0A byte in UTF-8 and UTF-16 alike.
  const first = bytes.subarray(0, 64).toString('latin1').replace(/^(\xef\xbb\xbf|\xff\xfe|\xfe\xff)/, '').replace(/[\s\0]+/, '')[0];
  const json = first === '[' || first === '{';
  const most = json ? MAX_POSITIONS : MAX_POSITIONS + 1000;
  // Lines by the platform's split, which stops one past the most; a JSON array's objects one by one.
  let count = json ? 0 : bytes.toString('latin1').split('\n', most + 2).length - 1;
  if (json) for (let at = bytes.indexOf(0x7b); at !== -1 && count <= most; at = bytes.indexOf(0x7b, at + 1)) if (startsElement(bytes, at)) count++;
  if (count > most) {
    const counted = json ? `${most.toLocaleString('en-US')} objects in its arrays` : `${most.toLocaleString('en-US')} lines`;
    throw new UsageError(`${source} has more than ${counted}, and mkt value takes at most ${MAX_POSITIONS.toLocaleString('en-US')} positions`,
      'value the book in parts (split -l), or sum the lots of each symbol first: a valuation keeps every position in memory');
  }
}

/** Whether the `{` at `at` follows `[` or `,`, past white space (and UTF-16's zero bytes). */
function startsElement(bytes: Buffer, at: number): boolean {
  let before = at - 1;
  while (before >= 0 && (bytes[before] === 0x20 || bytes[before] === 0x0a || bytes[before] === 0x0d || bytes[before] === 0x09 || bytes[before] === 0x00)) before--;
  return before >= 0 && (bytes[before] === 0x5b || bytes[before] === 0x2c);
}
