// Generated from docs/openapi.yaml by scripts/openapi-document.js with openapi-typescript; do not
// edit. After changing the YAML, `npm run openapi` writes this file again (test/sandbox/openapi-document.test.ts
// fails until then). src/api/data-operation.ts reads the data operations' answers from it.
export interface paths {
    "/v1/auth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Obtain an access token (OAuth 2.0 client credentials)
         * @description RFC 6749 section 4.4. The client authenticates with `client_id` and `client_secret` in the
         *     body (`client_secret_post`) or with HTTP Basic (`client_secret_basic`; the id and secret
         *     form-urlencoded as RFC 6749 section 2.3.1 says, or as they are, as curl `-u` and most
         *     libraries send them: either matches), never both. Checks run in this order: body size
         *     (413), media type (415), body syntax (400), credentials (401), the client's token rate
         *     limit (429), then the rest of the body (400). An empty body without a `Content-Type` is an
         *     empty set of fields, so HTTP Basic alone is answered 400 `invalid_request` (grant_type is
         *     required). A token is not tied to an organization: it may act for any of its client's.
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/cli-login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in from the command line with an API key
         * @description No `/v1` prefix. The API key is `<client_id>.<client_secret>`, split at the first dot. The
         *     token is bound to `organization_id`: with another `X-Organization-Id` it gets 403. Checks
         *     run in this order: body size (413), media type (415), body syntax (400), the API key (401),
         *     the organization and the `market.read` scope (403), the client's token rate limit (429),
         *     then unknown fields (400).
         */
        post: operations["cliLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/market/quotes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the latest quotes
         * @description The latest bid, ask, mid and timestamp of the supported symbols requested, in the order
         *     requested; unknown symbols are left out (a request of only unknown symbols gets
         *     `{"data": []}`). Checks run in this order: the bearer token (401), the `X-Organization-Id`
         *     header (400), the organization and then the `market.read` scope allowed for the token
         *     (403), the rate limit (429), then the query (400). A request counts against the limit from
         *     the rate-limit check on, a 400 about the query included.
         */
        get: operations["getQuotes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness probe
         * @description Answers 200 as soon as the service accepts requests. Not rate limited, and counts against no limit.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.yaml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This description, as YAML
         * @description This document exactly as the sandbox ships it (docs/openapi.yaml), comments included.
         */
        get: operations["getOpenApiYaml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This description, as JSON
         * @description This document converted to JSON, for tools that do not read YAML; the same content without the comments.
         */
        get: operations["getOpenApiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @example req_3f9a2c1b7d0e0000002a */
        RequestId: string;
        /** @example org_demo */
        OrganizationId: string;
        Quote: {
            /** @description Upper-case, as the service lists it. */
            symbol: string;
            /** @description Written with the instrument's decimals, trailing zeros included (`227.10`); parse with a decimal-aware JSON parser to keep them. */
            bid: number;
            /** @description Greater than `bid`, with the same decimals. */
            ask: number;
            /** @description (bid + ask) / 2 exactly; one decimal more than bid and ask, always a 5, when the halving needs it. */
            mid: number;
            /**
             * Format: date-time
             * @description When the quote was set, ISO 8601 UTC with milliseconds.
             */
            timestamp: string;
        };
        QuotesResponse: {
            data: components["schemas"]["Quote"][];
        };
        /** @description The service's own JSON form. `client_id` and `client_secret` are required unless the client uses HTTP Basic. Unknown fields are refused. */
        TokenRequest: {
            client_id?: string;
            client_secret?: string;
            /** @constant */
            grant_type: "client_credentials";
            /** @description Space-separated scopes: narrows the grant to those the client has. */
            scope?: string;
        };
        /** @description RFC 6749's form. `client_id` and `client_secret` are required unless the client uses HTTP Basic. Unknown parameters are ignored (RFC 6749 section 3.2); a repeated one is refused. */
        TokenForm: {
            client_id?: string;
            client_secret?: string;
            /** @constant */
            grant_type: "client_credentials";
            scope?: string;
        };
        Token: {
            access_token: components["schemas"]["AccessToken"];
            /** @constant */
            token_type: "Bearer";
            /** @description Seconds from now until the token gets 401. */
            expires_in: number;
            /** @description The granted scopes, space-separated; empty when none. */
            scope: string;
        };
        CliLoginRequest: {
            /** @description <client_id>.<client_secret> */
            api_key: string;
            organization_id: components["schemas"]["OrganizationId"];
        };
        CliLoginToken: {
            access_token: components["schemas"]["AccessToken"];
            /** @constant */
            token_type: "Bearer";
            expires_in: number;
            scope: string;
            organization_id: components["schemas"]["OrganizationId"];
        };
        /** @description Opaque; 32 random bytes, base64url. */
        AccessToken: string;
        Health: {
            /** @constant */
            status: "ok";
        };
        /**
         * @description One per status: 400 INVALID_REQUEST, 401 UNAUTHORIZED, 403 FORBIDDEN, 404 NOT_FOUND,
         *     405 METHOD_NOT_ALLOWED, 408 REQUEST_TIMEOUT, 413 PAYLOAD_TOO_LARGE, 414 URI_TOO_LONG,
         *     415 UNSUPPORTED_MEDIA_TYPE, 417 EXPECTATION_FAILED, 429 RATE_LIMITED,
         *     431 REQUEST_HEADER_FIELDS_TOO_LARGE, 500 INTERNAL.
         * @enum {string}
         */
        ErrorCode: "INVALID_REQUEST" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "REQUEST_TIMEOUT" | "PAYLOAD_TOO_LARGE" | "URI_TOO_LONG" | "UNSUPPORTED_MEDIA_TYPE" | "EXPECTATION_FAILED" | "RATE_LIMITED" | "REQUEST_HEADER_FIELDS_TOO_LARGE" | "INTERNAL";
        /** @description The service's error envelope. Each status has one code (see the responses). */
        EnvelopeError: {
            error: {
                code: components["schemas"]["ErrorCode"];
                message: string;
            };
            request_id: components["schemas"]["RequestId"];
        };
        InvalidRequestError: components["schemas"]["EnvelopeError"] & {
            error?: {
                /** @constant */
                code?: "INVALID_REQUEST";
            };
        };
        UnauthorizedError: components["schemas"]["EnvelopeError"] & {
            error?: {
                /** @constant */
                code?: "UNAUTHORIZED";
            };
        };
        ForbiddenError: components["schemas"]["EnvelopeError"] & {
            error?: {
                /** @constant */
                code?: "FORBIDDEN";
            };
        };
        RateLimitedError: components["schemas"]["EnvelopeError"] & {
            error?: {
                /** @constant */
                code?: "RATE_LIMITED";
            };
        };
        /** @description RFC 6749 section 5.2's error, with the service's code and request id beside it. */
        OAuthError: {
            /**
             * @description The RFC 6749 code; `temporarily_unavailable` and `server_error` (from section 4.1.2.1) for a 429 and a 500.
             * @enum {string}
             */
            error: "invalid_request" | "invalid_client" | "invalid_scope" | "unsupported_grant_type" | "unauthorized_client" | "temporarily_unavailable" | "server_error";
            error_description: string;
            code: components["schemas"]["ErrorCode"];
            request_id: components["schemas"]["RequestId"];
        };
    };
    responses: {
        /** @description Malformed input (body, fields, organization id), or a request that is not valid HTTP. */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["Optional-RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["Optional-RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["Optional-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["Optional-RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["InvalidRequestError"];
            };
        };
        /** @description A missing or malformed `X-Organization-Id` (before the rate limit), or a bad query (after it, with the RateLimit-* headers); or a request that is not valid HTTP. */
        DataBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["Optional-RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["Optional-RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["Optional-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["Optional-RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["InvalidRequestError"];
            };
        };
        /**
         * @description Malformed body or fields, a missing or unsupported `grant_type` (`unsupported_grant_type`),
         *     a malformed `scope` (`invalid_scope`), or two ways of client authentication at once. A
         *     request that is not valid HTTP is answered in the envelope.
         */
        TokenBadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["Optional-RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["Optional-RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["Optional-RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["Optional-RateLimit-Policy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": (components["schemas"]["OAuthError"] & {
                    /** @enum {unknown} */
                    error?: "invalid_request" | "unsupported_grant_type" | "invalid_scope";
                    /** @constant */
                    code?: "INVALID_REQUEST";
                }) | components["schemas"]["InvalidRequestError"];
            };
        };
        /** @description Credentials missing or invalid. */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UnauthorizedError"];
            };
        };
        /** @description No bearer token, or one that is unknown or expired. */
        BearerUnauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate-Bearer"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UnauthorizedError"];
            };
        };
        /** @description Client credentials missing or invalid, or a malformed HTTP Basic header. */
        TokenUnauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate-Client"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OAuthError"] & {
                    /** @constant */
                    error?: "invalid_client";
                    /** @constant */
                    code?: "UNAUTHORIZED";
                };
            };
        };
        /** @description The API key's client may not act for the organization, or lacks `market.read`. */
        Forbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ForbiddenError"];
            };
        };
        /** @description The token may not act for the organization, or lacks `market.read` (then with `WWW-Authenticate`). */
        DataForbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate-Scope"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ForbiddenError"];
            };
        };
        /** @description The headers (10 s) or the whole request (30 s) did not arrive in time; the connection is closed. Always the envelope. */
        RequestTimeout: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["EnvelopeError"];
            };
        };
        /** @description A body over 64 KiB; the connection is closed. */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["EnvelopeError"];
            };
        };
        /** @description A body over 64 KiB; the connection is closed. */
        TokenPayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OAuthError"];
            };
        };
        /** @description A query string over 8 KiB. */
        UriTooLong: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["EnvelopeError"];
            };
        };
        /** @description A query string over 8 KiB. */
        TokenUriTooLong: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OAuthError"];
            };
        };
        /** @description A body without `Content-Type: application/json`, or in a charset other than UTF-8. */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["EnvelopeError"];
            };
        };
        /** @description A body that is neither JSON nor a form, or in a charset other than UTF-8. (An empty body without a type is no fields.) */
        TokenUnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OAuthError"];
            };
        };
        /** @description An `Expect` header other than `100-continue`; the connection is closed. */
        ExpectationFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["EnvelopeError"];
            };
        };
        /** @description An `Expect` header other than `100-continue`; the connection is closed. */
        TokenExpectationFailed: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OAuthError"];
            };
        };
        /** @description Over a market data limit of the (client, organization); nothing was counted. */
        DataRateLimited: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RateLimitedError"];
            };
        };
        /** @description Over the client's token limit; nothing was issued or counted. */
        TokenRateLimited: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["TokenRateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OAuthError"] & {
                    /** @constant */
                    error?: "temporarily_unavailable";
                    /** @constant */
                    code?: "RATE_LIMITED";
                };
            };
        };
        /** @description Over the client's token limit; nothing was issued or counted. */
        TokenLoginRateLimited: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["TokenRateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RateLimitedError"];
            };
        };
        /** @description The request line and headers exceed 16 KiB; the connection is closed. Always the envelope. */
        HeaderFieldsTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["EnvelopeError"];
            };
        };
        /** @description The service itself failed. The message is just `internal error`, never a stack trace. */
        InternalError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["EnvelopeError"];
            };
        };
        /** @description The service itself failed. The message is just `internal error`, never a stack trace. */
        TokenInternalError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OAuthError"] & {
                    /** @constant */
                    error?: "server_error";
                    /** @constant */
                    code?: "INTERNAL";
                };
            };
        };
    };
    parameters: {
        /**
         * @description Comma-separated instrument symbols. Each item has surrounding spaces removed and is
         *     upper-cased; empty items are skipped and repeats dropped. An item is 1 to 32 visible ASCII
         *     characters, not starting with `=`, `+`, `-` or `@` (no market's symbol does). At most 100 distinct symbols (the sandbox's `--max-symbols`); the query string
         *     as a whole at most 8 KiB.
         */
        Symbols: string;
        /**
         * @description A venue code (ISO 10383 MIC or FX platform), 1 to 64 visible ASCII characters, any case:
         *     the quote on that venue, for the instruments that trade there, and none for the others (nor
         *     for any instrument when the service has no such venue). Without it, each instrument's
         *     primary venue.
         */
        Venue: string;
        /** @description The organization the request acts for. */
        OrganizationId: components["schemas"]["OrganizationId"];
    };
    requestBodies: never;
    headers: {
        /** @description The request's id, the same as the body's `request_id` on errors. Never taken from the request. */
        "X-Request-Id": components["schemas"]["RequestId"];
        /** @description The limit of the binding window (the one with the fewest requests left; on a tie, the one resetting last). */
        "RateLimit-Limit": number;
        /** @description Requests left in the binding window, after this one. */
        "RateLimit-Remaining": number;
        /** @description Whole seconds until the binding window resets, rounded up. */
        "RateLimit-Reset": number;
        /** @description The three market data windows, per (client, organization). */
        "RateLimit-Policy": string;
        /** @description The token window, per client. */
        "TokenRateLimit-Policy": string;
        /** @description Whole seconds, rounded up, until a request can pass (when no other request uses the window first). */
        "Retry-After": number;
        /**
         * @description `Bearer realm="mkt-sandbox"`, with `error="invalid_token"` when a token was sent but is
         *     unknown or expired (RFC 6750 section 3.1).
         */
        "WWW-Authenticate-Bearer": string;
        /**
         * @description `Basic realm="mkt-sandbox", charset="UTF-8"`, only when the client used the Authorization
         *     header (RFC 6749 section 5.2); absent when it sent its credentials in the body, so that OAuth
         *     libraries read the JSON error rather than a demand for another scheme.
         */
        "WWW-Authenticate-Client": string;
        /** @description On the 403 for a token without `market.read` only - `Bearer realm="mkt-sandbox", error="insufficient_scope", scope="market.read"`. */
        "WWW-Authenticate-Scope": string;
        /** @description Present when the request had counted against a limit before it failed. */
        "Optional-RateLimit-Limit": number;
        /** @description Present when the request had counted against a limit before it failed. */
        "Optional-RateLimit-Remaining": number;
        /** @description Present when the request had counted against a limit before it failed. */
        "Optional-RateLimit-Reset": number;
        /** @description Present when the request had counted against a limit before it failed. */
        "Optional-RateLimit-Policy": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenRequest"];
                "application/x-www-form-urlencoded": components["schemas"]["TokenForm"];
            };
        };
        responses: {
            /** @description An access token (RFC 6749 section 5.1), not to be cached. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["TokenRateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            400: components["responses"]["TokenBadRequest"];
            401: components["responses"]["TokenUnauthorized"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["TokenPayloadTooLarge"];
            414: components["responses"]["TokenUriTooLong"];
            415: components["responses"]["TokenUnsupportedMediaType"];
            417: components["responses"]["TokenExpectationFailed"];
            429: components["responses"]["TokenRateLimited"];
            431: components["responses"]["HeaderFieldsTooLarge"];
            500: components["responses"]["TokenInternalError"];
        };
    };
    cliLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CliLoginRequest"];
            };
        };
        responses: {
            /** @description An access token for the organization, not to be cached. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["TokenRateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CliLoginToken"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            414: components["responses"]["UriTooLong"];
            415: components["responses"]["UnsupportedMediaType"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["TokenLoginRateLimited"];
            431: components["responses"]["HeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getQuotes: {
        parameters: {
            query: {
                /**
                 * @description Comma-separated instrument symbols. Each item has surrounding spaces removed and is
                 *     upper-cased; empty items are skipped and repeats dropped. An item is 1 to 32 visible ASCII
                 *     characters, not starting with `=`, `+`, `-` or `@` (no market's symbol does). At most 100 distinct symbols (the sandbox's `--max-symbols`); the query string
                 *     as a whole at most 8 KiB.
                 */
                symbols: components["parameters"]["Symbols"];
                /**
                 * @description A venue code (ISO 10383 MIC or FX platform), 1 to 64 visible ASCII characters, any case:
                 *     the quote on that venue, for the instruments that trade there, and none for the others (nor
                 *     for any instrument when the service has no such venue). Without it, each instrument's
                 *     primary venue.
                 */
                venue?: components["parameters"]["Venue"];
            };
            header: {
                /** @description The organization the request acts for. */
                "X-Organization-Id": components["parameters"]["OrganizationId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The quotes. Prices are JSON numbers written with the instrument's decimals. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuotesResponse"];
                };
            };
            400: components["responses"]["DataBadRequest"];
            401: components["responses"]["BearerUnauthorized"];
            403: components["responses"]["DataForbidden"];
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            417: components["responses"]["ExpectationFailed"];
            429: components["responses"]["DataRateLimited"];
            431: components["responses"]["HeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service is up. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            417: components["responses"]["ExpectationFailed"];
            431: components["responses"]["HeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getOpenApiYaml: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This document, as written. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/yaml": string;
                };
            };
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            417: components["responses"]["ExpectationFailed"];
            431: components["responses"]["HeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getOpenApiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This document, converted to JSON. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                        info: Record<string, never>;
                        paths: Record<string, never>;
                        components: Record<string, never>;
                    };
                };
            };
            408: components["responses"]["RequestTimeout"];
            414: components["responses"]["UriTooLong"];
            417: components["responses"]["ExpectationFailed"];
            431: components["responses"]["HeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
}
