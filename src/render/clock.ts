// Times and intervals as the watch shows them to a person: local wall-clock time, short intervals.

/** HH:MM:SS in the local time zone: the board and its warnings are read by a person at this machine. */
export function formatClock(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

/** 2s, 1m, 1500ms. */
export function formatInterval(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
