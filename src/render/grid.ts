// The one table engine, for the one-shot table (src/render/table.ts: drawn in a box) and the watch
// board (src/render/board.ts: columns apart by spaces, redrawn in place). A column is plain text per
// row plus a style added after padding, so widths come from the text and colour never counts. When
// the width is short, free text that can shrink (a Note) shrinks first. Then the table keeps every
// column: if they do not fit side by side, each row becomes a block, a field per line, so a narrower
// terminal never shows fewer fields. The board, redrawn in a window of fixed height, may also drop the
// least needed columns (in `dropOrder`) where the blocks do not fit that height, and names what it
// dropped (Layout.hidden). A value
// is never cut: a value wider than the terminal is written whole for the terminal to wrap. Only free
// text (a Note, a status line) is shortened, with a marker.
// Drawn here rather than with cli-table3, whose layout grows faster than linearly with the rows:
// 0.3 s for 1,000 rows, 2 s for 4,000, 8 to 10 s for 10,000 (docs/benchmarks.md); this is linear.

export interface Column {
  /** What it shows, for a caller looking one up (a field's name, `note`). */
  name?: string;
  title: string;
  align: 'left' | 'right';
  /** Plain text, one per row. */
  cells: string[];
  /** Colour for a body cell, given padded; it must not change the visible text. */
  style?: (padded: string, row: number) => string;
  /** Lower goes first when the width is short; undefined: never dropped. */
  dropOrder?: number;
  /** Free text, cut to fit (down to `minWidth` characters) rather than dropped. */
  shrink?: { minWidth: number; cut: (text: string, width: number) => string };
  /**
   * Cells wider than this do not set the column's width: they are written whole and push the rest
   * of their row along (one price of 40 significant digits must not pad 20,000 rows to 40).
   */
  widest?: number;
}

/** What a line spends besides the cells: between two cells, and at both ends together. */
export interface Frame {
  gap: number;
  edges: number;
}

/** `│ a │ b │` */
export const BOX_FRAME: Frame = { gap: 3, edges: 4 };
/** `a  b` */
export const SPACED_FRAME: Frame = { gap: 2, edges: 0 };

export interface Layout {
  columns: Column[];
  widths: number[];
  /** The width of a line, frame included. */
  width: number;
  /**
   * The columns do not fit side by side (or a row with a value wider than its column would not
   * fit): a block per row, a field per line, with every column given.
   */
  blocks?: Column[];
  /** The columns dropped to fit (only when dropping is allowed: the board), for the caller to name. */
  hidden: Column[];
}

export interface LayoutOptions {
  /**
   * Drop columns in their dropOrder to fit rather than turn the rows into blocks: for the board, whose
   * window has room for a line per row and no more. The caller says what was dropped (Layout.hidden).
   */
  drop?: boolean;
}

/**
 * The columns laid out for `maxWidth` (drawn whole when it is undefined, as in a pipe), with their
 * widths: free text shrunk to fit, then, when the board allows it, the least needed columns dropped;
 * when the columns still do not fit, blocks.
 */
export function layoutColumns(columns: readonly Column[], maxWidth: number | undefined, frame: Frame, options: LayoutOptions = {}): Layout {
  let kept = columns.map((column) => ({ column, width: columnWidth(column) }));
  const hidden: Column[] = [];
  const total = () => kept.reduce((sum, entry) => sum + entry.width, 0) + frame.gap * Math.max(0, kept.length - 1) + frame.edges;
  if (maxWidth !== undefined) {
    const candidates = kept.filter((entry) => entry.column.dropOrder !== undefined && (options.drop === true || entry.column.shrink !== undefined))
      .sort((a, b) => a.column.dropOrder! - b.column.dropOrder!);
    for (const entry of candidates) {
      const over = total() - maxWidth;
      if (over <= 0) break;
      const shrink = entry.column.shrink;
      // Without dropping, free text shrinks as far as it may; dropping, only when that is enough.
      const width = shrink === undefined ? entry.width : Math.max(shrink.minWidth, entry.width - over);
      if (shrink !== undefined && width < entry.width && (!options.drop || entry.width - over >= shrink.minWidth)) {
        entry.column = { ...entry.column, cells: entry.column.cells.map((cell) => (displayWidth(cell) > width ? shrink.cut(cell, width) : cell)) };
        entry.width = width;
        continue;
      }
      if (!options.drop) continue;
      kept = kept.filter((candidate) => candidate !== entry);
      hidden.push(entry.column);
    }
  }
  const layout: Layout = { columns: kept.map((entry) => entry.column), widths: kept.map((entry) => entry.width), width: total(), hidden };
  if (maxWidth !== undefined && (layout.width > maxWidth || widestRow(layout) > maxWidth)) layout.blocks = [...columns];
  return layout;
}

/** The widest line of the layout, counting the cells wider than their column (see Column.widest). */
function widestRow(layout: Layout): number {
  if (!layout.columns.some((column) => column.widest !== undefined)) return layout.width;
  const rows = layout.columns[0]?.cells.length ?? 0;
  let widest = layout.width;
  for (let row = 0; row < rows; row++) {
    let extra = 0;
    layout.columns.forEach((column, index) => {
      extra += Math.max(0, displayWidth(column.cells[row] ?? '') - layout.widths[index]!);
    });
    widest = Math.max(widest, layout.width + extra);
  }
  return widest;
}

function columnWidth(column: Column): number {
  let width = displayWidth(column.title);
  const widest = column.widest ?? Number.POSITIVE_INFINITY;
  for (const cell of column.cells) {
    const size = displayWidth(cell);
    if (size > width && size <= widest) width = size;
  }
  return width;
}

export interface DrawOptions {
  /** Plain ASCII (`+-|`) instead of box-drawing characters. */
  ascii: boolean;
  /** Style of the titles (bold, or nothing without colour). */
  title: (text: string) => string;
  /** The terminal's width, for blocks; undefined: unknown. */
  maxWidth: number | undefined;
}

const BOX = { top: '┌┬┐', middle: '├┼┤', bottom: '└┴┘', line: '─', bar: '│' };
const ASCII_BOX = { top: '+++', middle: '+++', bottom: '+++', line: '-', bar: '|' };

/** The one-shot table: a box around the titles and the rows (or blocks), one string, a newline after each line. */
export function drawBox(layout: Layout, options: DrawOptions): string {
  if (layout.blocks !== undefined) return `${drawBlocks(layout.blocks, options).map((block) => block.join('\n')).join('\n\n')}\n`;
  const { columns, widths } = layout;
  const chars = options.ascii ? ASCII_BOX : BOX;
  const line = (text: string) => `${text}\n`;
  const rule = ([left, middle, right]: string) => line(`${left}${widths.map((width) => chars.line.repeat(width + 2)).join(middle)}${right}`);
  const open = `${chars.bar} `;
  const between = ` ${chars.bar} `;
  const close = ` ${chars.bar}`;

  let text = rule(chars.top);
  text += line(`${open}${columns.map((column, index) => options.title(pad(column.title, widths[index]!, column.align))).join(between)}${close}`);
  text += rule(chars.middle);
  const rows = columns[0]?.cells.length ?? 0;
  for (let row = 0; row < rows; row++) text += line(`${open}${bodyCells(layout, row).join(between)}${close}`);
  return text + rule(chars.bottom);
}

/** The board: a title line and the first `rows` rows, columns two spaces apart. */
export function drawSpaced(layout: Layout, rows: number, options: DrawOptions): string[] {
  const { columns, widths } = layout;
  const line = (cells: string[]) => cells.join(' '.repeat(SPACED_FRAME.gap)).trimEnd();
  const lines = [line(columns.map((column, index) => options.title(pad(column.title, widths[index]!, column.align))))];
  for (let row = 0; row < rows; row++) lines.push(line(bodyCells(layout, row)));
  return lines;
}

/**
 * A block per row: the first column's cell (the symbol), with the cells of untitled columns (the
 * board's arrow) beside it, then a line per titled column that has a value, `  Title  value`. When
 * such a line does not fit the width, every title goes on a line of its own above its value, and a
 * value still wider than the width is written whole: the terminal wraps it, nothing cuts it. Free
 * text (a column that can shrink) is cut to the width instead.
 */
export function drawBlocks(columns: readonly Column[], options: Pick<DrawOptions, 'maxWidth' | 'title'>): string[][] {
  // The symbol heads its block, wherever --fields put it.
  const symbol = columns.findIndex((column) => column.name === 'symbol');
  const [heading, ...rest] = symbol <= 0 ? columns : [columns[symbol]!, ...columns.filter((_column, index) => index !== symbol)];
  if (heading === undefined) return [];
  const beside = rest.filter((column) => column.title === '');
  const fields = rest.filter((column) => column.title !== '');
  const titleWidth = Math.max(0, ...fields.map((column) => displayWidth(column.title)));
  const rows = heading.cells.length;
  const value = (column: Column, row: number) => (column.cells[row] ?? '').trim();
  const width = options.maxWidth;
  const inline = (title: string, text: string) => `  ${pad(title, titleWidth, 'left')}  ${text}`;
  let stacked = false;
  if (width !== undefined) {
    for (let row = 0; row < rows && !stacked; row++) {
      stacked = fields.some((column) => column.shrink === undefined && displayWidth(inline(column.title, value(column, row))) > width);
    }
  }
  const blocks: string[][] = [];
  for (let row = 0; row < rows; row++) {
    const style = (column: Column, text: string) => (column.style === undefined ? text : column.style(text, row));
    const top = [style(heading, value(heading, row)), ...beside.map((column) => style(column, value(column, row)))].filter((text) => text !== '');
    const lines = [top.join(' ')];
    for (const column of fields) {
      let text = value(column, row);
      if (text === '') continue;
      const room = width === undefined ? undefined : stacked ? width : width - displayWidth(inline(column.title, ''));
      if (column.shrink !== undefined && room !== undefined && displayWidth(text) > room) text = column.shrink.cut(text, Math.max(1, room));
      if (stacked) lines.push(options.title(column.title), style(column, text));
      else lines.push(`  ${options.title(pad(column.title, titleWidth, 'left'))}  ${style(column, text)}`);
    }
    blocks.push(lines);
  }
  return blocks;
}

function bodyCells(layout: Layout, row: number): string[] {
  return layout.columns.map((column, index) => {
    const padded = pad(column.cells[row] ?? '', layout.widths[index]!, column.align);
    return column.style === undefined ? padded : column.style(padded, row);
  });
}

function pad(text: string, width: number, align: Column['align']): string {
  const fill = width - displayWidth(text);
  if (fill <= 0) return text;
  return align === 'right' ? ' '.repeat(fill) + text : text + ' '.repeat(fill);
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Terminal columns of plain text: one per code point (control characters are gone). Counted one by
 * one only when a surrogate pair is there: this runs for every cell, 70,000 times for 10,000 rows.
 */
function displayWidth(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * Free text shortened to `width` at a space, with `ellipsis` where the rest was: a clock, a count or
 * a symbol in it is shown whole or not at all. Just the ellipsis when not even the first word fits.
 */
export function shorten(text: string, width: number, ellipsis: string): string {
  if (displayWidth(text) <= width) return text;
  const words = text.split(' ');
  let kept = '';
  for (const word of words) {
    const next = kept === '' ? word : `${kept} ${word}`;
    if (displayWidth(next) + displayWidth(ellipsis) > width) break;
    kept = next;
  }
  // A word that ends in a separator reads better without it: `EURUSD,…` as `EURUSD…`.
  return `${kept.replace(/[,:;·|]$/, '').trimEnd()}${ellipsis}`;
}

/**
 * Free text in lines of at most `width`, broken at spaces, every word kept: where one word is longer
 * than a line (a window a few columns wide), it is broken across lines rather than cut. For the
 * words that must be read whole, such as what a board leaves out and how to see it.
 */
export function wrapWords(text: string, width: number): string[] {
  const size = Math.max(1, width);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((part) => part !== '')) {
    if (line !== '' && displayWidth(line) + 1 + displayWidth(word) <= size) {
      line += ` ${word}`;
      continue;
    }
    if (line !== '') lines.push(line);
    let chars = [...word];
    for (; chars.length > size; chars = chars.slice(size)) lines.push(chars.slice(0, size).join(''));
    line = chars.join('');
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The terminal rows a line takes in a window `columns` wide: a value wider than the window wraps. */
export function screenRows(line: string, columns: number): number {
  return Math.max(1, Math.ceil(displayWidth(line.replace(SGR_ALL, '')) / Math.max(1, columns)));
}

const SGR_ALL = /\u001b\[[0-9;]*m/g;
const SGR = /^\u001b\[[0-9;]*m/;

/** Cuts text to `width` visible characters, skipping colour sequences; resets styles if it cut. */
export function truncateStyled(text: string, width: number): string {
  let visible = 0;
  let out = '';
  let styled = false;
  for (let i = 0; i < text.length;) {
    const escape = text.charCodeAt(i) === 0x1b ? SGR.exec(text.slice(i, i + 32)) : null;
    if (escape) {
      out += escape[0];
      styled = true;
      i += escape[0].length;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i)!);
    if (visible === width) return styled ? `${out}\u001b[0m` : out;
    out += char;
    visible++;
    i += char.length;
  }
  return out;
}
