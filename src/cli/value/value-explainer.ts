// The words for what goes wrong with `mkt value`: a positions file or a flag it cannot use (the
// library's PositionsError and OptionsError name the file, the line and the field: the hint says
// which flag helps), and the refusals of its quotes requests in quotes' words (rate-limit plans,
// batch sizes, credentials).
import { OptionsError, PositionsError } from '../../api/index.js';
import type { Deps } from '../deps.js';
import { quotesExplainer } from '../hints/quotes.js';
import type { Explainer } from '../hints/words.js';
import type { TargetFlags } from '../settings.js';

/** For a valuation made with `flags`' credentials; `symbolCount()`: the symbols of its first round, once known. */
export function valueExplainer(deps: Deps, flags: TargetFlags, symbolCount: () => number): Explainer {
  return (error, names) => {
    if (error instanceof PositionsError) {
      if (error.reason === 'no-currency') return { hint: 'add a currency column, or give --currency CCY for the positions without one (mkt never guesses a currency)' };
      if (error.field === 'currency' && error.source === undefined) return { hint: '--currency takes an ISO 4217 code such as USD, or a minor unit such as GBX' };
      return undefined;
    }
    if (error instanceof OptionsError && error.option === 'base') return { hint: '--base takes an ISO 4217 code such as USD or EUR, or a minor unit such as GBX' };
    return quotesExplainer(deps, flags, symbolCount())(error, names);
  };
}
