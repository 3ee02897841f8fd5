// The words for what goes wrong with `mkt value`: a positions file or a flag it cannot use (the
// library's PositionsError and OptionsError name the file, the line and the field: the hint says
// which flag helps), and the refusals of its quotes requests in quotes' words (rate-limit plans,
// batch sizes, credentials).
import { OptionsError, PositionsError } from '../../api/index.js';
import type { Deps } from '../deps.js';
import { quotesExplainer } from '../hints/quotes.js';
import type { Explainer } from '../hints/words.js';
import type { TargetFlags } from '../options/settings.js';
import { printable } from '../../shared/text.js';
import { positionsErrorHint } from './positions-words.js';

/** For a valuation made with `flags`' credentials; `symbolCount()`: the symbols of its first round, once known. */
export function valueExplainer(deps: Deps, flags: TargetFlags & { encoding?: string }, symbolCount: () => number): Explainer {
  return (error, names) => {
    if (error instanceof PositionsError) {
      if (error.field === 'currency' && error.source === undefined) return { hint: '--currency takes an ISO 4217 code such as USD, or a minor unit such as GBX' };
      // Several problems: the headline here, each problem on a line of its own under it (main.ts).
      const message = error.problemCount > 1 ? `${printable(error.source ?? 'the positions')} has ${error.problemCount} problems, so nothing was valued:` : undefined;
      return { message, hint: positionsErrorHint(error) };
    }
    if (error instanceof OptionsError && error.option === 'base') return { hint: '--base takes an ISO 4217 code such as USD or EUR, or a minor unit such as GBX' };
    if (error instanceof OptionsError && error.option === 'encoding') {
      return { message: `--encoding ${printable(flags.encoding ?? '', { max: 40, quote: true })} is not an encoding mkt can read`, hint: '--encoding takes a label of the WHATWG Encoding standard: utf-8, utf-16le, cp1252 (Excel on Windows), latin1, iso-8859-15, shift_jis...' };
    }
    return quotesExplainer(deps, flags, symbolCount())(error, names);
  };
}
