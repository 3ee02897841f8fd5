// A result row: what was compared, the two medians, the figure the target limits (a ratio, a
// difference or an absolute value) and whether it is within the limit.

const UNITS = {
  ms: (v) => `${v.toFixed(1)} ms`,
  bytes: (v) => `${(v / 2 ** 20).toFixed(1)} MiB`,
  rps: (v) => `${Math.round(v).toLocaleString('en-US')} req/s`,
};

export function formatValue(value, unit) {
  return Number.isFinite(value) ? UNITS[unit](value) : '—';
}

/**
 * kind 'ratio': a.median / b.median against limit, op '<=' or '>='; 'diff': a.median - b.median
 * (in a's unit) <= limit; 'abs': a.median against limit.
 */
export function judge({ target, what, node, kind, op, limit, unit, a, b, note }) {
  let value;
  if (kind === 'ratio') value = a.median / b.median;
  else if (kind === 'diff') value = a.median - b.median;
  else value = a.median;
  const pass = op === '<=' ? value <= limit : value >= limit;
  return { target, what, node, kind, op, limit, unit, a, b, value, status: pass ? 'pass' : 'FAIL', note };
}

export function blockedRow({ target, what, node, kind, op, limit, unit }, reason, status = 'blocked') {
  return { target, what, node, kind, op, limit, unit, value: Number.NaN, status, note: reason };
}

export function valueText(row) {
  if (!Number.isFinite(row.value)) return '—';
  // Two decimals, or three when two would round a miss onto the limit (0.498x is not 0.50x).
  if (row.kind === 'ratio') return `${row.value.toFixed(row.value.toFixed(2) === row.limit.toFixed(2) ? 3 : 2)}x`;
  if (row.kind === 'diff') return `${row.value >= 0 ? '+' : ''}${formatValue(row.value, row.unit)}`;
  return formatValue(row.value, row.unit);
}

export function limitText(row) {
  const op = row.op === '<=' ? '≤' : '≥';
  if (row.kind === 'ratio') return `${op} ${row.limit}x`;
  if (row.kind === 'diff') return `${op} +${formatValue(row.limit, row.unit)}`;
  return `${op} ${formatValue(row.limit, row.unit)}`;
}
