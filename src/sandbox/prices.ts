// Deterministic prices: a function of (instrument, venue, time, seed) with no state, so any moment
// can be quoted cheaply, two sandboxes with one seed agree, and tests can predict values.
//
// The walk is multi-octave value noise: for periods of 1 s, 4 s, 16 s ... 4^11 s (about 48 days),
// a hashed random value at each multiple of the period, linearly interpolated, weighted by the
// square root of the period. Increments over a span T then scale like sqrt(T), as a random walk's
// do, while each evaluation costs 12 octaves instead of a sum over all seconds since the epoch.
// Prices live in minor units (integers), so bid, ask and mid are exact decimals.
import { hashString, type Instrument } from './catalogue.js';

const OCTAVES = 12;
const SQRT_SECONDS_PER_DAY = Math.sqrt(86_400);

/** murmur3's 32-bit finalizer: a cheap bijective mix. */
function fmix(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of (key, n) for any safe integer n, negative or beyond 2^32 included. */
function hashAt(key: number, n: number): number {
  const low = n >>> 0;
  const high = Math.floor(n / 4_294_967_296) >>> 0;
  return fmix(fmix(key ^ low) ^ Math.imul(high ^ 0x5bd1e995, 0x9e3779b1));
}

/** Maps a 32-bit hash to [-1, 1). */
function unit(hash: number): number {
  return hash / 2_147_483_648 - 1;
}

const OCTAVE_SALTS = Array.from({ length: OCTAVES }, (_, k) => fmix(0x9e3779b9 * (k + 1)));

/** Values of one instrument on one venue at one tick, in minor units. */
export interface QuoteValues {
  bid: number;
  ask: number;
  /** When this quote was set: a hashed millisecond within its second, never after the asked time. */
  tickMs: number;
}

/** Formats an integer count of minor units with exactly `decimals` places: (22710, 2) -> "227.10". */
export function formatMinorUnits(units: number, decimals: number): string {
  if (decimals === 0) return String(units);
  const digits = String(units).padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/**
 * (bid + ask) / 2, exact: with the instrument's decimals when the sum is even, otherwise with one
 * more decimal, which is then always 5 (108415 + 108418 at 5 places -> "1.084165").
 */
export function formatMid(bid: number, ask: number, decimals: number): string {
  const sum = bid + ask;
  return sum % 2 === 0 ? formatMinorUnits(sum / 2, decimals) : formatMinorUnits(sum * 5, decimals + 1);
}

interface InstrumentState {
  key: number;
  sigmaPerSqrtSecond: number;
  /** Per venue: the last tick served and its JSON, reused while the tick lasts. */
  cachedTick: number[];
  cachedJson: string[];
}

export class QuoteBook {
  private readonly seedKey: number;
  private readonly states = new Map<Instrument, InstrumentState>();

  constructor(seed: number) {
    this.seedKey = hashAt(0x2545f491, seed);
  }

  private state(instrument: Instrument): InstrumentState {
    let state = this.states.get(instrument);
    if (state === undefined) {
      state = {
        key: fmix(hashString(instrument.symbol) ^ this.seedKey),
        sigmaPerSqrtSecond: instrument.dailyVolatility / SQRT_SECONDS_PER_DAY,
        cachedTick: [],
        cachedJson: [],
      };
      this.states.set(instrument, state);
    }
    return state;
  }

  /** Relative offset of the price from its base at whole second `second`. */
  private walk(state: InstrumentState, second: number): number {
    let sum = 0;
    let period = 1;
    let weight = 1;
    for (let k = 0; k < OCTAVES; k++) {
      const octaveKey = state.key ^ (OCTAVE_SALTS[k] as number);
      const index = Math.floor(second / period);
      const fraction = (second - index * period) / period;
      const from = unit(hashAt(octaveKey, index));
      const to = fraction === 0 ? from : unit(hashAt(octaveKey, index + 1));
      sum += weight * (from + (to - from) * fraction);
      period *= 4;
      weight *= 2;
    }
    // The sum's spread over a span is about sqrt(span in seconds); scale it to the instrument's
    // volatility, and keep the price well away from zero whatever the seed.
    return Math.max(-0.9, sum * state.sigmaPerSqrtSecond);
  }

  /** The second whose quote is current at `nowMs` on a venue, and when within it the quote was set. */
  private tick(state: InstrumentState, venueIndex: number, nowMs: number): { second: number; tickMs: number } {
    const tickKey = fmix(state.key ^ Math.imul(venueIndex + 1, 0x27d4eb2d));
    let second = Math.floor(nowMs / 1000);
    let offset = hashAt(tickKey, second) % 1000;
    if (nowMs - second * 1000 < offset) {
      second -= 1;
      offset = hashAt(tickKey, second) % 1000;
    }
    return { second, tickMs: second * 1000 + offset };
  }

  private valuesAt(instrument: Instrument, state: InstrumentState, venueIndex: number, second: number, tickMs: number): QuoteValues {
    const center = Math.round(instrument.basePrice * (1 + this.walk(state, second)));
    const spreadKey = fmix(state.key ^ Math.imul(venueIndex + 7, 0x165667b1));
    const spread = instrument.spread + (hashAt(spreadKey, second) % (instrument.spread + 1));
    const bid = Math.max(1, center - Math.floor(spread / 2));
    return { bid, ask: bid + spread, tickMs };
  }

  /** The quote current at `nowMs` for `instrument` on its venue number `venueIndex` (0 = primary). */
  quote(instrument: Instrument, venueIndex: number, nowMs: number): QuoteValues {
    const state = this.state(instrument);
    const { second, tickMs } = this.tick(state, venueIndex, nowMs);
    return this.valuesAt(instrument, state, venueIndex, second, tickMs);
  }

  /** The quote as the JSON object of the spec's Quote schema, prices at the instrument's precision. */
  quoteJson(instrument: Instrument, venueIndex: number, nowMs: number): string {
    const state = this.state(instrument);
    const { second, tickMs } = this.tick(state, venueIndex, nowMs);
    if (state.cachedTick[venueIndex] === tickMs) return state.cachedJson[venueIndex] as string;
    const { bid, ask } = this.valuesAt(instrument, state, venueIndex, second, tickMs);
    const { decimals } = instrument;
    // Symbols come from the catalogue (plain ASCII), so no escaping is needed.
    const json =
      `{"symbol":"${instrument.symbol}","bid":${formatMinorUnits(bid, decimals)},"ask":${formatMinorUnits(ask, decimals)},` +
      `"mid":${formatMid(bid, ask, decimals)},"timestamp":"${new Date(tickMs).toISOString()}"}`;
    state.cachedTick[venueIndex] = tickMs;
    state.cachedJson[venueIndex] = json;
    return json;
  }
}
