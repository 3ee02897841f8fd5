// A sparkline of decimal prices (▁▂▃▄▅▆▇█, or _.:-=+*# in plain ASCII), scaled between the lowest
// and highest value shown.
// Levels come from exact comparisons, (value - min) * 8 >= k * (max - min), so no float rounding
// can move a point to the wrong bar; nothing here prints a number.
import Big from 'big.js';

export const SPARK_LEVELS = '▁▂▃▄▅▆▇█';
/** For terminals without UTF-8 (TERM=dumb, LC_ALL=C): low to high, eight levels as well. */
export const ASCII_SPARK_LEVELS = '_.:-=+*#';

/** The last `width` values as bars; a flat series sits in the middle, so it reads as "no change". */
export function sparkline(values: readonly string[], width = values.length, levels = SPARK_LEVELS): string {
  if (width <= 0 || values.length === 0) return '';
  const shown = values.slice(-width).map((value) => new Big(value));
  let min = shown[0]!;
  let max = shown[0]!;
  for (const value of shown) {
    if (value.lt(min)) min = value;
    if (value.gt(max)) max = value;
  }
  const range = max.minus(min);
  if (range.eq(0)) return levels[levels.length / 2 - 1]!.repeat(shown.length);
  return shown.map((value) => {
    const scaled = value.minus(min).times(levels.length);
    let level = 0;
    while (level < levels.length - 1 && scaled.gte(range.times(level + 1))) level++;
    return levels[level];
  }).join('');
}

/** A bounded history per key, oldest first: what the board keeps in memory, nothing on disk. */
export class History {
  readonly limit: number;
  readonly #series = new Map<string, string[]>();

  constructor(limit: number) {
    this.limit = limit;
  }

  add(key: string, value: string): void {
    let series = this.#series.get(key);
    if (series === undefined) {
      series = [];
      this.#series.set(key, series);
    }
    series.push(value);
    if (series.length > this.limit) series.splice(0, series.length - this.limit);
  }

  get(key: string): readonly string[] {
    return this.#series.get(key) ?? [];
  }

  /** Keys held: what grows with the symbols seen, and must not grow with a server's whims. */
  get size(): number {
    return this.#series.size;
  }
}
