// Times and durations as mkt shows them to a person: local wall-clock time, short durations.

/** HH:MM:SS in the local time zone: the board and its warnings are read by a person at this machine. */
export function formatClock(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

/** 500ms, 2s, 1.5s, 1m, 90s: waits, intervals and timeouts in messages. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${(ms / 1000).toFixed(1)}s`;
}
