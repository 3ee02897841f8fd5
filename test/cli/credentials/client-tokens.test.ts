// Issue 36, item 1: a stored token belongs to the client that minted it. With MKT_CLIENT_ID and
// MKT_CLIENT_SECRET set, a stored client-credentials token is used only for the base URL, client id
// and secret it was minted with (the secret known by an HMAC keyed with the file's own key, never
// kept); any other is set aside and a token is minted, kept per client; without those variables the
// profile's token is used as before; `mkt status` says whose token it shows; logout removes them all.
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../src/sandbox/index.js';
import { FINGERPRINT_KEY, fingerprintOf } from '../../helpers/client-token.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import { useSandboxSession } from '../../helpers/sandbox-session.js';

/** The README's rule: a profile keeps the tokens of 16 clients beside its own. */
const MAX_CLIENT_TOKENS = 16;
const log: RequestLogEntry[] = [];
const EXTRA = Array.from({ length: MAX_CLIENT_TOKENS + 1 }, (_, i) => ({ client_id: `c${i + 1}`, client_secret: `c${i + 1}-secret`, orgs: ['org_demo'], scopes: ['market.read'] }));
const session = useSandboxSession({
  tokenTtlSeconds: 600,
  limits: { perMinute: 10_000 },
  clients: [{ client_id: 'someoneelse', client_secret: 'other-secret', orgs: ['org_demo'], scopes: ['market.read'] }, ...EXTRA],
  onRequest: (entry) => log.push(entry),
});
const { run } = session;
beforeEach(() => {
  log.length = 0;
});

const DEMO = { MKT_CLIENT_ID: 'demo', MKT_CLIENT_SECRET: 'demo-secret', MKT_ORG: 'org_demo' };
const OTHER = { MKT_CLIENT_ID: 'someoneelse', MKT_CLIENT_SECRET: 'other-secret', MKT_ORG: 'org_demo' };
const configFile = () => path.join(session.configDir, 'config.json');
const fileText = () => fs.readFileSync(configFile(), 'utf8');
const fileData = () => JSON.parse(fileText());
const tokenRequests = () => log.filter((entry) => entry.path === '/v1/auth/token').length;
/** The client each quotes request was authenticated as, in order (undefined: refused). */
const quotesBy = () => log.filter((entry) => entry.path === '/v1/market/quotes').map((entry) => entry.clientId);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function quotes(env: Record<string, string>, expected = 0) {
  const result = await run(['quotes', 'EURUSD', '--format', 'tsv'], { env });
  expect(result.code, result.stderr).toBe(expected);
  return result;
}

describe('with MKT_CLIENT_ID and MKT_CLIENT_SECRET, only that client\'s own token is used', () => {
  it('another client after demo mints its own token; with a wrong secret, exit 4 at once', async () => {
    await quotes(DEMO);
    const wrong = await quotes({ ...OTHER, MKT_CLIENT_SECRET: 'wrong' }, 4);
    expect(wrong.stderr).toContain('error: not authenticated (401 UNAUTHORIZED): invalid client credentials');
    expect(wrong.stderr).toContain('hint: mkt asked for a token with MKT_CLIENT_ID and MKT_CLIENT_SECRET and the service refused them');
    expect(tokenRequests()).toBe(2);
    expect(quotesBy()).toEqual(['demo']);
    await quotes(OTHER);
    expect(quotesBy()).toEqual(['demo', 'someoneelse']);
  });

  it('demo with a wrong secret is exit 4 at once: one token request, no quotes request', async () => {
    await quotes(DEMO);
    log.length = 0;
    await quotes({ ...DEMO, MKT_CLIENT_SECRET: 'wrong' }, 4);
    expect(tokenRequests()).toBe(1);
    expect(quotesBy()).toEqual([]);
  });

  it('a client with fewer scopes gets its own token, and its own 403', async () => {
    await quotes(DEMO);
    const narrow = await quotes({ MKT_CLIENT_ID: 'noscope', MKT_CLIENT_SECRET: 'noscope-secret', MKT_ORG: 'org_demo' }, 5);
    expect(narrow.stderr).toContain('hint: the token of client noscope (MKT_CLIENT_ID) lacks the market.read scope or access to org_demo (from MKT_ORG): check MKT_ORG, or use a client that has both');
    expect(log.filter((entry) => entry.path === '/v1/market/quotes').map((entry) => [entry.clientId, entry.status])).toEqual([['demo', 200], ['noscope', 403]]);
  });

  it('the same client at another service mints there, and keeps the first service\'s token', async () => {
    await quotes(DEMO);
    const first = fileData().profiles.default.client_tokens[0];
    const other = await startTestSandbox({ onRequest: (entry) => log.push(entry) });
    try {
      log.length = 0;
      await quotes({ ...DEMO, MKT_BASE_URL: other.url });
      expect(tokenRequests()).toBe(1);
      const kept = fileData().profiles.default.client_tokens;
      expect(kept.map((token: { base_url: string }) => token.base_url)).toEqual([other.url, session.sandbox.url]);
      expect(kept[1]).toEqual(first);
    } finally {
      await other.close();
    }
  });

  it('a stored token without a fingerprint (an older mkt\'s) does not match: a new one is minted beside it', async () => {
    fs.mkdirSync(session.configDir, { recursive: true, mode: 0o700 });
    const now = session.sandbox.clock.now();
    const old = {
      access_token: 'tok-unfingerprinted', token_type: 'Bearer', base_url: session.sandbox.url, source: 'client-credentials', client_id: 'demo',
      organization_id: 'org_demo', obtained_at: new Date(now).toISOString(), expires_at: new Date(now + 600_000).toISOString(),
    };
    fs.writeFileSync(configFile(), JSON.stringify({ profiles: { default: { token: old } } }), { mode: 0o600 });
    await quotes(DEMO);
    // It was not sent: one quotes request, with the new token, and no 401 to renew after.
    expect(log.map((entry) => [entry.path, entry.status])).toEqual([['/v1/auth/token', 200], ['/v1/market/quotes', 200]]);
    const data = fileData();
    expect(data.profiles.default.token).toEqual(old);
    expect(data.profiles.default.client_tokens).toMatchObject([{ client_id: 'demo', base_url: session.sandbox.url }]);
  });

  it('MKT_TOKEN still comes first: no token is minted', async () => {
    const result = await run(['quotes', 'EURUSD'], { env: { ...DEMO, MKT_TOKEN: 'tok-from-env' } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('MKT_TOKEN is set');
    expect(tokenRequests()).toBe(0);
  });
});

describe('tokens are kept per client', () => {
  it('two clients taking turns mint one token each, then use their own', async () => {
    for (let i = 0; i < 3; i++) {
      await quotes(DEMO);
      await quotes(OTHER);
    }
    expect(tokenRequests()).toBe(2);
    expect(quotesBy()).toEqual(['demo', 'someoneelse', 'demo', 'someoneelse', 'demo', 'someoneelse']);
    const kept = fileData().profiles.default.client_tokens;
    expect(kept.map((token: { client_id: string }) => token.client_id).sort()).toEqual(['demo', 'someoneelse']);
  });

  it('mkt token\'s token is the client\'s: used by a run with the same variables, and renewed in place', async () => {
    expect((await run(['token'], { env: DEMO })).code).toBe(0);
    const stored = fileData().profiles.default.token;
    await quotes(DEMO);
    expect(tokenRequests()).toBe(1);
    expect(fileData().profiles.default.token).toEqual(stored);
    // Expired by the CLI's clock: renewed where it is, the profile's own token.
    const later = () => session.sandbox.clock.now() + 601_000;
    expect((await run(['quotes', 'EURUSD'], { env: DEMO, now: later })).code).toBe(0);
    const data = fileData();
    expect(data.profiles.default.token.access_token).not.toBe(stored.access_token);
    expect(data.profiles.default.client_tokens).toBeUndefined();
    expect(tokenRequests()).toBe(2);
  });

  it(`keeps the ${MAX_CLIENT_TOKENS} most recently minted, and drops the expired`, async () => {
    const base = session.sandbox.clock.now();
    for (const [i, client] of EXTRA.entries()) {
      const env = { MKT_CLIENT_ID: client.client_id, MKT_CLIENT_SECRET: client.client_secret, MKT_ORG: 'org_demo' };
      expect((await run(['quotes', 'EURUSD'], { env, now: () => base + i * 1000 })).code).toBe(0);
    }
    const ids = () => fileData().profiles.default.client_tokens.map((token: { client_id: string }) => token.client_id);
    expect(ids()).toEqual(EXTRA.slice(1).map((client) => client.client_id).reverse());
    // 590 s on, c2's token (minted at base + 1 s) has expired; c3's has not.
    expect((await run(['quotes', 'EURUSD'], { env: DEMO, now: () => base + 601_500 })).code).toBe(0);
    expect(ids()).toEqual(['demo', ...EXTRA.slice(2).map((client) => client.client_id).reverse()]);
  });

  it('a client_tokens member an edit broke is read as none and written anew', async () => {
    fs.mkdirSync(session.configDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(configFile(), JSON.stringify({ profiles: { default: { client_tokens: [1, null, 'x', []] } } }), { mode: 0o600 });
    await quotes(DEMO);
    expect(fileData().profiles.default.client_tokens).toMatchObject([{ client_id: 'demo' }]);
    fs.writeFileSync(configFile(), JSON.stringify({ profiles: { default: { client_tokens: 'junk' } } }), { mode: 0o600 });
    await quotes(DEMO);
    expect(fileData().profiles.default.client_tokens).toHaveLength(1);
  });
});

describe('the secret is never in the file', () => {
  it('only its HMAC, keyed with the file\'s own random key', async () => {
    expect((await run(['token'], { env: DEMO })).code).toBe(0);
    await quotes(OTHER);
    const text = fileText();
    expect(text).not.toContain('demo-secret');
    expect(text).not.toContain('other-secret');
    const data = fileData();
    expect(data.fingerprint_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(data.fingerprint_key, 'base64url')).toHaveLength(32);
    expect(data.profiles.default.token.secret_fingerprint).toBe(fingerprintOf('demo-secret', data.fingerprint_key));
    expect(data.profiles.default.client_tokens[0].secret_fingerprint).toBe(fingerprintOf('other-secret', data.fingerprint_key));
    expect((fs.statSync(configFile()).mode & 0o777).toString(8)).toBe('600');
    // Nor in what mkt prints, the fingerprint included.
    const verbose = await run(['quotes', 'EURUSD', '-v'], { env: OTHER });
    const status = await run(['status', '--json'], { env: OTHER });
    for (const output of [verbose.stdout, verbose.stderr, status.stdout, status.stderr]) {
      expect(output).not.toContain('other-secret');
      expect(output).not.toContain(data.profiles.default.client_tokens[0].secret_fingerprint.slice(12));
    }
  });

  it('the file\'s key is kept: a token stored with a fingerprint made with it is found', async () => {
    expect((await run(['token'], { env: DEMO })).code).toBe(0);
    const token = { ...fileData().profiles.default.token, secret_fingerprint: fingerprintOf('demo-secret') };
    fs.writeFileSync(configFile(), JSON.stringify({ fingerprint_key: FINGERPRINT_KEY, profiles: { default: { token } } }), { mode: 0o600 });
    log.length = 0;
    await quotes(DEMO);
    expect(tokenRequests()).toBe(0);
    expect(fileData().fingerprint_key).toBe(FINGERPRINT_KEY);
  });
});

describe('without the variables, the profile\'s token is used as before', () => {
  it('mkt login\'s token serves plain runs; a client run beside it mints its own and leaves it', async () => {
    await session.login();
    const before = fileData().profiles.default.token;
    await quotes(OTHER);
    await quotes({ MKT_ORG: 'org_demo' });
    expect(quotesBy()).toEqual(['someoneelse', 'demo']);
    expect(fileData().profiles.default.token).toEqual(before);
  });

  it('a profile with tokens kept only for clients says so when there is no token of its own', async () => {
    await quotes(DEMO);
    const result = await run(['quotes', 'EURUSD'], { env: { MKT_ORG: 'org_demo' } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('error: not logged in: no stored token (profile default)');
    expect(result.stderr).toContain('the profile\'s tokens kept for client demo are used only with that client\'s MKT_CLIENT_ID and MKT_CLIENT_SECRET');
    expect((await run(['config', 'list'])).stdout).toBe('client-tokens=(stored for demo)\n');
  });
});

describe('mkt status says whose token it shows', () => {
  it('another client\'s: none of its own, and why the profile\'s is not used', async () => {
    expect((await run(['token'], { env: DEMO })).code).toBe(0);
    const text = await run(['status'], { env: OTHER });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Token: +\(none\)$/m);
    expect(text.stdout).toMatch(/^Client credentials: +someoneelse {2}\(from MKT_CLIENT_ID and MKT_CLIENT_SECRET\)$/m);
    expect(text.stdout).toMatch(/^ {2}Profile's token: +not used: it was minted for client demo, not someoneelse$/m);
    expect(text.stdout).toContain(`Warning: no stored token of client someoneelse for ${session.sandbox.url}; MKT_CLIENT_ID and MKT_CLIENT_SECRET will get a new one`);
    const json = JSON.parse((await run(['status', '--json'], { env: OTHER })).stdout);
    expect(json.token).toMatchObject({ present: false, kind: 'unset', client_id: null, fingerprint: null });
    expect(json.client_credentials).toEqual({
      present: true, client_id: 'someoneelse', renews_token: true, profile_token_set_aside: 'it was minted for client demo, not someoneelse',
    });
  });

  it('the same client with another secret: the profile\'s token is set aside', async () => {
    expect((await run(['token'], { env: DEMO })).code).toBe(0);
    const json = JSON.parse((await run(['status', '--json'], { env: { ...DEMO, MKT_CLIENT_SECRET: 'rotated' } })).stdout);
    expect(json.token.present).toBe(false);
    expect(json.client_credentials.profile_token_set_aside).toBe('it was minted with another client secret');
  });

  it('the client\'s own token, kept beside the profile\'s, and the profile\'s own without the variables', async () => {
    await session.login();
    await quotes(OTHER);
    const text = await run(['status'], { env: OTHER });
    expect(text.stdout).toMatch(new RegExp(`^Token: +via client-credentials for client someoneelse {2}\\(from ${escape(configFile())} \\(profile default, client_tokens\\)\\)$`, 'm'));
    expect(text.stdout).toMatch(/^ {2}Profile's token: +not used: it was got with an API key \(mkt login\), not with client credentials$/m);
    const json = JSON.parse((await run(['status', '--json'], { env: OTHER })).stdout);
    expect(json.token).toMatchObject({ present: true, kind: 'config', obtained_via: 'client-credentials', client_id: 'someoneelse', source: `${configFile()} (profile default, client_tokens)` });
    const plain = JSON.parse((await run(['status', '--json'], { env: { MKT_ORG: 'org_demo' } })).stdout);
    expect(plain.token).toMatchObject({ present: true, obtained_via: 'cli-login', client_id: 'demo', source: `${configFile()} (profile default)` });
    expect(plain.client_credentials).toEqual({ present: false, client_id: null, renews_token: false, profile_token_set_aside: null });
    expect((await run(['status'], { env: { MKT_ORG: 'org_demo' } })).stdout).toMatch(/^Token: +via cli-login for client demo {2}\(/m);
  });
});

describe('mkt logout removes the tokens kept for clients too', () => {
  it('of the profile, and of every profile with --all', async () => {
    await session.login();
    await quotes(DEMO);
    await quotes(OTHER);
    const result = await run(['logout']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Removed the stored token of profile default.');
    expect(result.stderr).toContain('Removed the 2 tokens profile default kept for clients someoneelse, demo (minted with MKT_CLIENT_ID and MKT_CLIENT_SECRET). The service defines no revocation: they stay valid until they expire, the last in 10m.');
    expect(fileData().profiles.default).toEqual({ org: 'org_demo' });
    expect((await run(['config', 'set', 'org', 'org_demo', '--profile', 'ci'])).code).toBe(0);
    await quotes({ ...DEMO, MKT_PROFILE: 'ci' });
    const all = await run(['logout', '--all']);
    expect(all.stderr).toContain('Removed the token profile ci kept for client demo (minted with MKT_CLIENT_ID and MKT_CLIENT_SECRET). The service defines no revocation: it stays valid for 10m more, until it expires.');
    expect(fileData().profiles.ci).toEqual({ org: 'org_demo' });
  });
});
