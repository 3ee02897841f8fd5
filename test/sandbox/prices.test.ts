// The price model as pure functions: exact decimal formatting, exact mids, and a walk that is
// deterministic, moves, and keeps bid below ask at any moment.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalogue, INSTRUMENTS } from '../../src/sandbox/catalogue.js';
import { formatMid, formatMinorUnits, QuoteBook } from '../../src/sandbox/prices.js';

describe('formatMinorUnits', () => {
  it.each([
    [22710, 2, '227.10'],
    [108415, 5, '1.08415'],
    [151420, 3, '151.420'],
    [5, 5, '0.00005'],
    [100, 2, '1.00'],
    [7, 0, '7'],
  ])('(%i, %i) -> %s', (units, decimals, text) => {
    expect(formatMinorUnits(units, decimals)).toBe(text);
  });
});

describe('formatMid', () => {
  it.each([
    [108412, 108418, 5, '1.08415'],
    [108415, 108418, 5, '1.084165'],
    [22710, 22711, 2, '227.105'],
    [22709, 22711, 2, '227.10'],
    [1, 2, 5, '0.000015'],
  ])('(%i + %i) / 2 at %i decimals -> %s', (bid, ask, decimals, text) => {
    expect(formatMid(bid, ask, decimals)).toBe(text);
  });

  it('is exact for any prices: twice the mid is bid + ask, digit for digit', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 1000 }), fc.constantFrom(2, 3, 5), (bid, spread, decimals) => {
      const ask = bid + spread;
      const mid = formatMid(bid, ask, decimals);
      const [whole = '', fraction = ''] = mid.split('.');
      expect(fraction.length === decimals || (fraction.length === decimals + 1 && fraction.endsWith('5'))).toBe(true);
      expect(BigInt(whole + fraction.padEnd(decimals + 1, '0')) * 2n).toBe(BigInt(bid + ask) * 10n);
    }));
  });
});

describe('QuoteBook', () => {
  const catalogue = [...createCatalogue(50).values()];

  it('keeps 0 < bid < ask and the tick no later than the time asked, at any time', () => {
    const book = new QuoteBook(1);
    fc.assert(fc.property(
      fc.constantFrom(...catalogue),
      fc.integer({ min: -1_000_000_000_000, max: 4_000_000_000_000 }),
      fc.nat({ max: 1 }),
      (instrument, now, venue) => {
        const venueIndex = Math.min(venue, instrument.venues.length - 1);
        const quote = book.quote(instrument, venueIndex, now);
        expect(Number.isSafeInteger(quote.bid)).toBe(true);
        expect(quote.bid).toBeGreaterThan(0);
        expect(quote.ask).toBeGreaterThan(quote.bid);
        expect(quote.tickMs).toBeLessThanOrEqual(now);
        expect(quote.tickMs).toBeGreaterThan(now - 2000);
      },
    ), { numRuns: 2000 });
  });

  it('is a function of (instrument, venue, time, seed) alone', () => {
    const [eurusd] = INSTRUMENTS;
    const a = new QuoteBook(42);
    const b = new QuoteBook(42);
    const times = [0, 1_700_000_000_000, 1_700_000_000_999, 1_700_000_001_000];
    expect(times.map((t) => a.quote(eurusd!, 0, t))).toEqual(times.map((t) => b.quote(eurusd!, 0, t)));
    expect(a.quoteJson(eurusd!, 0, times[1]!)).toBe(b.quoteJson(eurusd!, 0, times[1]!));
    expect(times.map((t) => new QuoteBook(43).quote(eurusd!, 0, t))).not.toEqual(times.map((t) => a.quote(eurusd!, 0, t)));
  });

  it('moves like a random walk: small steps over seconds, larger over days', () => {
    const book = new QuoteBook(1);
    const aapl = INSTRUMENTS.find((instrument) => instrument.symbol === 'AAPL')!;
    const at = (t: number) => book.quote(aapl, 0, t).bid;
    const start = Date.UTC(2025, 0, 6);
    let secondSteps = 0;
    let daySteps = 0;
    for (let i = 0; i < 200; i++) {
      secondSteps += Math.abs(at(start + (i + 1) * 1000) - at(start + i * 1000));
      daySteps += Math.abs(at(start + (i + 1) * 86_400_000) - at(start + i * 86_400_000));
    }
    expect(secondSteps).toBeGreaterThan(0);
    expect(daySteps / secondSteps).toBeGreaterThan(20);
  });

  it('reuses the JSON of a tick until the next tick', () => {
    const book = new QuoteBook(1);
    const eurusd = INSTRUMENTS[0]!;
    const { tickMs } = book.quote(eurusd, 0, 1_700_000_000_500);
    const first = book.quoteJson(eurusd, 0, tickMs);
    expect(book.quoteJson(eurusd, 0, tickMs + 1)).toBe(first);
    expect(first).toContain(`"timestamp":"${new Date(tickMs).toISOString()}"`);
  });
});
