// Every error the sandbox sends, in one envelope: {"error": {"code", "message"}, "request_id"},
// JSON with an X-Request-Id header, whatever went wrong and at whatever layer. Nothing taken from
// the request is ever put into a response header; messages are JSON-escaped in the body.
import { STATUS_CODES, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';

export const ERROR_STATUS = {
  INVALID_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  EXPECTATION_FAILED: 417,
  RATE_LIMITED: 429,
  REQUEST_HEADER_FIELDS_TOO_LARGE: 431,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface ErrorOptions {
  /** Extra response headers (constants chosen by the sandbox, never request data). */
  headers?: OutgoingHttpHeaders;
  /** RFC 6749 §5.2 error code, added as `error.oauth_error` on the auth endpoints. */
  oauthError?: string;
  /** Close the connection after the response (the rest of the request is not worth reading). */
  close?: boolean;
}

export function errorBody(code: ErrorCode, message: string, requestId: string, oauthError?: string): string {
  const error = oauthError === undefined ? { code, message } : { code, message, oauth_error: oauthError };
  return JSON.stringify({ error, request_id: requestId });
}

export function sendError(res: ServerResponse, requestId: string, code: ErrorCode, message: string, options: ErrorOptions = {}): void {
  const body = errorBody(code, message, requestId, options.oauthError);
  const headers: OutgoingHttpHeaders = {
    'Content-Type': JSON_CONTENT_TYPE,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Request-Id': requestId,
    ...options.headers,
  };
  if (options.close === true) headers.Connection = 'close';
  res.writeHead(ERROR_STATUS[code], headers);
  res.end(body);
}

/**
 * A whole HTTP/1.1 error response as text, for the cases where Node hands over a bare socket
 * (malformed requests, timeouts, CONNECT). It always closes the connection.
 */
export function rawErrorResponse(code: ErrorCode, message: string, requestId: string): string {
  const status = ERROR_STATUS[code];
  const body = errorBody(code, message, requestId);
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
    `Content-Type: ${JSON_CONTENT_TYPE}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Cache-Control: no-store\r\n' +
    'X-Content-Type-Options: nosniff\r\n' +
    `X-Request-Id: ${requestId}\r\n` +
    `Date: ${new Date().toUTCString()}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}
