// The valuation's public surface, passed on whole by index.ts: positions read exactly from a file's
// text or from objects, what to fetch for them, and valuePositions, which values them against
// quotes with no network. Everything else in the valuation's modules is mkt's own.
export {
  valuePositions, valueExactly, valuationAt, PRICE_RULES,
  type CurrencyTotal, type ExactCurrencyTotal, type ExactPosition, type ExactValuation, type FxRate, type PositionFacts, type PositionStatus, type TotalFacts, type ValuationFacts, type PriceRule, type Valuation, type ValuationAtOptions, type ValuedPosition, type ValuePositionsInput,
} from './valuation.js';
export { crossSymbols, valuationSymbols } from './valuation-plan.js';
export type { ExactFxRate, NoRoute, QuotesBySymbol } from './fx.js';
export { figureText, isPrecision, MAX_PRECISION_PLACES, PRECISIONS, READABLE_RATE_DIGITS, type Precision } from './precision.js';
export { minorDigits } from './currencies.js';
export { FULL, type Figure, type Rounding } from '../shared/figure.js';
export { positionsFromObjects, type ColumnMapping, type Position, type PositionsOptions, type PositionsWarning, type PositionsWarningCode } from './positions.js';
export { detectPositionsFormat, parsePositions, type ParsePositionsOptions, type PositionsFormat } from './positions-text.js';
export { PositionsError, type PositionsErrorReason, type PositionsOption, type PositionsProblem } from './positions-error.js';
