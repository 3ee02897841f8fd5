// The routes about the service rather than of it: GET /healthz for readiness probes, and the
// service's OpenAPI description (docs/openapi.yaml) as written and as JSON. No authentication, no
// rate limit, and they count against none.
import type { Route } from './exchange.js';
import { OPENAPI_JSON, OPENAPI_YAML } from './openapi-document.js';
import { sendOk } from './responses.js';

export const handleHealth: Route = (_ctx, ex) => sendOk(ex, '{"status":"ok"}');

// RFC 9512's media type for YAML.
export const handleOpenApiYaml: Route = (_ctx, ex) => sendOk(ex, OPENAPI_YAML, {}, 'application/yaml');

export const handleOpenApiJson: Route = (_ctx, ex) => sendOk(ex, OPENAPI_JSON);
