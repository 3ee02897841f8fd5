// An FX pair written as people write it (EUR/USD, EUR-USD, EUR_USD, EUR.USD), which the service
// names as six letters, EURUSD: the spelling mkt suggests when such a symbol has no quote or a
// check names it, instead of leaving "no quote for EUR/USD" to be puzzled over.

const SEPARATED_PAIR = /^([A-Za-z]{3})[/\-_.]([A-Za-z]{3})$/;

/** `EURUSD` for `EUR/USD` (or `eur-usd`); undefined for a symbol not written as a pair with a separator. */
export function pairSpelling(symbol: string): string | undefined {
  const match = SEPARATED_PAIR.exec(symbol.trim());
  return match === null ? undefined : `${match[1]}${match[2]}`.toUpperCase();
}

/** `an FX pair is six letters, no separator: EURUSD, not EUR/USD` for those of `symbols` written as pairs (three at most). */
export function pairSpellingNote(symbols: readonly string[]): string | undefined {
  const pairs = symbols.flatMap((symbol) => {
    const spelt = pairSpelling(symbol);
    return spelt === undefined ? [] : [`${spelt}, not ${symbol.trim()}`];
  });
  return pairs.length === 0 ? undefined : `an FX pair is six letters, no separator: ${pairs.slice(0, 3).join('; ')}${pairs.length > 3 ? '; ...' : ''}`;
}
