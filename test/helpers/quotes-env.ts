// What the network tests share (test/cli/network, and the pacer and the wait budget in test/api):
// credentials that must never show up in output, the environment that lets `mkt quotes` run without
// a login.

/** Secrets with distinctive shapes, so a grep for them cannot match anything else. */
export const TOKEN = 'tok_SECRET_4b7e91d2c0a8';
export const API_KEY = 'demo.key-SECRET-5c2f88a1';
export const CLIENT_SECRET = 'cs_SECRET_93d0e7aa4f';
export const ISSUED_TOKEN = 'at_SECRET_issued_6e1f04b9';

export function quotesEnv(baseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return { MKT_TOKEN: TOKEN, MKT_ORG: 'org_demo', MKT_BASE_URL: baseUrl, ...extra };
}

/** The auth endpoints' happy answer. */
export const TOKEN_RESPONSE = JSON.stringify({
  access_token: ISSUED_TOKEN, token_type: 'Bearer', expires_in: 3600, scope: 'market.read', organization_id: 'org_demo',
});
