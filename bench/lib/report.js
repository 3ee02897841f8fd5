// The printed report: one table of targets (medians, the limited figure, pass or fail), then the
// spread of every measured series, then the machine. Plain text, stable for pasting into docs.
import { formatValue, limitText, valueText } from './rows.js';

function table(header, lines) {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => String(line[i]).length)));
  const row = (cells) => `| ${cells.map((cell, i) => String(cell).padEnd(widths[i])).join(' | ')} |`;
  return [row(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(row)].join('\n');
}

export function resultsTable(rows) {
  return table(
    ['Target', 'A vs B', 'Node', 'A median', 'B median', 'Ratio / value', 'Limit', 'Runs', 'Result'],
    rows.map((r) => [
      r.target,
      r.what,
      r.node.replace('node ', ''),
      r.a ? formatValue(r.a.median, r.unit) : '—',
      r.b ? formatValue(r.b.median, r.unit) : '—',
      valueText(r),
      limitText(r),
      r.a ? r.a.n : '—',
      r.status === 'pass' ? 'pass' : `${r.status}${r.note ? `: ${r.note}` : ''}`,
    ]),
  );
}

export function seriesTable(recorded) {
  const lines = [];
  for (const { name, series } of recorded) {
    for (const s of series) {
      const f = (v) => formatValue(v, s.unit);
      lines.push([name.split(' [')[0].split(' ')[0], s.label, (name.match(/\[(.*)\]/)?.[1] ?? '').replace('node ', ''), s.n, f(s.median), `${f(s.q1)} – ${f(s.q3)}`, `${f(s.min)} – ${f(s.max)}`]);
    }
  }
  return table(['#', 'Series', 'Node', 'n', 'Median', 'Quartiles', 'Min – max'], lines);
}
