// The valuation's public surface, passed on whole by index.ts: positions read exactly from a file's
// text or from objects, what to fetch for them, and valuePositions, which values them against
// quotes with no network. Everything else in the valuation's modules is mkt's own.
export { valuePositions, PRICE_RULES, type CurrencyTotal, type PositionStatus, type PriceRule, type Valuation, type ValuedPosition, type ValuePositionsInput } from './valuation.js';
export { crossSymbols, valuationSymbols } from './valuation-plan.js';
export { RATE_DIGITS, type FxRate, type NoRoute, type QuotesBySymbol } from './fx.js';
export { positionsFromObjects, type ColumnMapping, type Position, type PositionsOptions, type PositionsWarning, type PositionsWarningCode } from './positions.js';
export { detectPositionsFormat, parsePositions, type ParsePositionsOptions, type PositionsFormat } from './positions-text.js';
export { PositionsError, type PositionsErrorReason, type PositionsOption, type PositionsProblem } from './positions-error.js';
