// Every error the sandbox sends, JSON with an X-Request-Id header, whatever went wrong and at
// whatever layer, in one of two shapes: the service's envelope, {"error": {"code", "message"},
// "request_id"}, and on the token endpoint RFC 6749 §5.2's, {"error", "error_description"} as
// top-level strings plus the service's `code` and `request_id`, so that standard OAuth clients can
// read a failure. Nothing taken from the request is ever put into a response header; messages are
// JSON-escaped in the body.
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

/** The shape of an error body: the service's envelope, or RFC 6749 §5.2's (the token endpoint). */
export type ErrorStyle = 'envelope' | 'oauth';

/**
 * RFC 6749 §5.2 `error` for each code, when the route names no more precise one. A 429 or 500 has
 * no §5.2 code; `temporarily_unavailable` and `server_error` are the ones RFC 6749 §4.1.2.1 gives
 * for the same conditions, and OAuth libraries know them.
 */
const OAUTH_ERROR: Record<ErrorCode, string> = {
  INVALID_REQUEST: 'invalid_request',
  UNAUTHORIZED: 'invalid_client',
  FORBIDDEN: 'unauthorized_client',
  NOT_FOUND: 'invalid_request',
  METHOD_NOT_ALLOWED: 'invalid_request',
  REQUEST_TIMEOUT: 'invalid_request',
  PAYLOAD_TOO_LARGE: 'invalid_request',
  URI_TOO_LONG: 'invalid_request',
  UNSUPPORTED_MEDIA_TYPE: 'invalid_request',
  EXPECTATION_FAILED: 'invalid_request',
  RATE_LIMITED: 'temporarily_unavailable',
  REQUEST_HEADER_FIELDS_TOO_LARGE: 'invalid_request',
  INTERNAL: 'server_error',
};

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface ErrorOptions {
  /** Extra response headers (constants chosen by the sandbox, never request data). */
  headers?: OutgoingHttpHeaders;
  /** RFC 6749 §5.2 `error`, where it says more than the code's default (`unsupported_grant_type`). */
  oauthError?: string;
  /** Close the connection after the response (the rest of the request is not worth reading). */
  close?: boolean;
}

/** Thrown by a route or the grant preamble to answer with an error; the router sends it. */
export class Reject {
  constructor(
    readonly code: ErrorCode,
    readonly message: string,
    readonly options: ErrorOptions = {},
  ) {}
}

function errorBody(style: ErrorStyle, code: ErrorCode, message: string, requestId: string, oauthError?: string): string {
  if (style === 'oauth') {
    return JSON.stringify({ error: oauthError ?? OAUTH_ERROR[code], error_description: message, code, request_id: requestId });
  }
  return JSON.stringify({ error: { code, message }, request_id: requestId });
}

export function sendError(res: ServerResponse, requestId: string, style: ErrorStyle, error: Reject): void {
  const { code, message, options } = error;
  const body = errorBody(style, code, message, requestId, options.oauthError);
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
 * (malformed requests, timeouts, CONNECT): the envelope, since the path may not be known. It always
 * closes the connection.
 */
export function rawErrorResponse(code: ErrorCode, message: string, requestId: string): string {
  const status = ERROR_STATUS[code];
  const body = errorBody('envelope', code, message, requestId);
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
