// A sparkline of decimal prices (▁▂▃▄▅▆▇█), scaled between the lowest and highest value shown.
// Levels come from exact comparisons, (value - min) * 8 >= k * (max - min), so no float rounding
// can move a point to the wrong bar; nothing here prints a number.
import Big from 'big.js';

export const SPARK_LEVELS = '▁▂▃▄▅▆▇█';
const FLAT = '▄';

/** The last `width` values as bars; a flat series sits in the middle, so it reads as "no change". */
export function sparkline(values: readonly string[], width = values.length): string {
  if (width <= 0 || values.length === 0) return '';
  const shown = values.slice(-width).map((value) => new Big(value));
  let min = shown[0]!;
  let max = shown[0]!;
  for (const value of shown) {
    if (value.lt(min)) min = value;
    if (value.gt(max)) max = value;
  }
  const range = max.minus(min);
  if (range.eq(0)) return FLAT.repeat(shown.length);
  const levels = SPARK_LEVELS.length;
  return shown.map((value) => {
    const scaled = value.minus(min).times(levels);
    let level = 0;
    while (level < levels - 1 && scaled.gte(range.times(level + 1))) level++;
    return SPARK_LEVELS[level];
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
}
