// The routes about the service rather than of it: GET /healthz for readiness probes. No
// authentication, no rate limit, and they count against none.
import type { Route } from './exchange.js';
import { sendOk } from './responses.js';

export const handleHealth: Route = (_ctx, ex) => sendOk(ex, '{"status":"ok"}');
