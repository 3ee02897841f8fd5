// The fields of a position, in the order a file's columns are listed in messages.

/** The fields a position has: a file's other columns are ignored (positions-columns.ts). */
export const POSITION_FIELDS = ['symbol', 'quantity', 'currency', 'cost', 'cost_total'] as const;
export type PositionField = (typeof POSITION_FIELDS)[number];
