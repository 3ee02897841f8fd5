// The request log's line format (`mkt sandbox --log`), for anyone reading onRequest's entries.
import { stripControl } from '../shared/text.js';
import type { RequestLogEntry } from './options.js';

const MAX_LOGGED_PATH = 200;

/**
 * One request as a line: `2025-01-06T14:30:15.250Z GET /v1/market/quotes 200 demo 0.4ms req_…`,
 * `-` standing for what a request did not have. The query string is never logged: it may carry a
 * token (RFC 6750 §2.3 allows one there), and its symbols are not needed to follow a run. Nothing
 * else in an entry can hold a secret; control characters in a path are dropped.
 */
export function formatLogLine(entry: RequestLogEntry): string {
  const { path } = entry;
  const shown = path === undefined ? '-' : stripControl(path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}...` : path);
  return `${new Date(entry.time).toISOString()} ${entry.method ?? '-'} ${shown} ${entry.status || '-'} ${entry.clientId ?? '-'} ${entry.durationMs.toFixed(1)}ms ${entry.requestId}\n`;
}
