// HTTP statuses as they appear in messages and debug lines.

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified', 307: 'Temporary Redirect',
  308: 'Permanent Redirect', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  413: 'Content Too Large', 415: 'Unsupported Media Type', 429: 'Too Many Requests', 500: 'Internal Server Error',
  502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** For messages: `rate limited`, `503 Service Unavailable`. */
export function describeStatus(status: number): string {
  return status === 429 ? 'rate limited' : statusLine(status);
}

/** For debug lines: `200 OK`, `429 Too Many Requests`, `418`. */
export function statusLine(status: number): string {
  return `${status} ${STATUS_TEXT[status] ?? ''}`.trim();
}
