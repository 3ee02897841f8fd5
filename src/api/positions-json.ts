// A positions file in JSON: an array of position objects, read digit for digit (parseJsonExact).
// One pass over the text first finds how deep it nests, refusing what is deeper than positions are read
// before the parser recurses into it (past a few thousand levels the parser's recursion overflows
// the stack, which read as "not valid JSON"), and the line each position starts on, for messages.
import { parseJsonExact } from './json.js';
import { PositionsError } from './positions-error.js';
import { positionsFromItems, type Position, type PositionsOptions } from './positions.js';
import { MAX_POSITIONS_JSON_DEPTH } from '../shared/limits.js';

/** Positions from JSON text (no byte-order mark). */
export function readJsonPositions(body: string, options: PositionsOptions): Position[] {
  const { source } = options;
  const layout = jsonLayout(body);
  if (layout.tooDeep !== undefined) {
    throw new PositionsError(`is JSON nested more than ${MAX_POSITIONS_JSON_DEPTH} levels deep, deeper than positions are read (an array of positions is 2 levels)`, {
      reason: 'syntax', source, line: layout.tooDeep,
    });
  }
  let value: unknown;
  try {
    value = parseJsonExact(body);
  } catch (error) {
    const position = Number(/position (\d+)/.exec((error as Error).message)?.[1]);
    const line = Number.isInteger(position) ? lineAt(body, position) : undefined;
    throw new PositionsError(`is not valid JSON: ${(error as Error).message}`, { reason: 'syntax', source, line });
  }
  if (!Array.isArray(value)) {
    throw new PositionsError('is JSON, but not an array of positions such as [{"symbol": "AAPL", "quantity": 10, "currency": "USD"}]', { reason: 'syntax', source });
  }
  return positionsFromItems(value, options, layout.itemLines);
}

/** The 1-based line of character `index` of `text`. */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

interface JsonLayout {
  /** The line where the text first nests deeper than MAX_POSITIONS_JSON_DEPTH. */
  tooDeep?: number;
  /** The line each element of the top-level array starts on. */
  itemLines: number[];
}

/** Depth and element lines, from the brackets outside strings; the text's syntax is the parser's to judge. */
function jsonLayout(text: string): JsonLayout {
  const itemLines: number[] = [];
  let depth = 0;
  let line = 1;
  // Inside the top-level array, where the next element may start.
  let expectItem = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      line++;
      continue;
    }
    if (c === 0x20 || c === 0x09 || c === 0x0d) continue;
    if (depth === 1 && expectItem && c !== 0x5d && c !== 0x2c) {
      itemLines.push(line);
      expectItem = false;
    }
    if (c === 0x22) {
      // A string: to its closing quote, past escapes. JSON allows no raw line break inside one.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > MAX_POSITIONS_JSON_DEPTH) return { tooDeep: line, itemLines };
      if (depth === 1) expectItem = c === 0x5b;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    } else if (c === 0x2c && depth === 1) {
      expectItem = true;
    }
  }
  return { itemLines };
}
