// A service (or a config file) that sends what it should not: escape sequences, C1 controls, bidi
// overrides, absurd exponents, tokens that are not tokens. Nothing of it may reach a terminal raw,
// crash mkt, or go out in a header.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { reply, useServers, type FaultServer } from '../helpers/fault-server.js';

// Characters a terminal acts on: C0 (but newline), DEL, C1, line/paragraph separators, bidi.
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const servers = useServers();
let server: FaultServer | undefined;

async function serve(body: string, path = '') {
  server = await servers.script((request, res) => {
    if (path && !request.url.startsWith(path)) return reply(404, '{}')(request, res, undefined as never);
    reply(200, body)(request, res, undefined as never);
  });
  return server.url;
}

describe('hostile service text', () => {
  it('login and status print the service\'s scope without control characters', async () => {
    const url = await serve('{"access_token":"abc123","token_type":"Bearer","expires_in":60,"scope":"market.read\\u001b]0;PWNED\\u0007\\u009b2J\\u202e"}');
    const login = await runCli(['login', '--org', 'org_demo', '--base-url', url], { env: { MKT_API_KEY: 'demo.demo-secret' } });
    expect(login.code).toBe(0);
    expect(login.stderr).toContain('scope market.read]0;PWNED2J');
    expect(login.stderr).not.toMatch(RAW);
    for (const args of [['status', '--base-url', url], ['status', '--json', '--base-url', url]]) {
      const status = await runCli(args, { configDir: login.configDir });
      expect(status.code).toBe(0);
      expect(status.stdout).not.toMatch(RAW);
    }
    const json = await runCli(['status', '--json', '--base-url', url], { configDir: login.configDir });
    expect(json.stdout).toContain('\\u009b');
    expect(JSON.parse(json.stdout).token.scope).toBe('market.read\u001b]0;PWNED\u0007\u009b2J\u202e');
  });

  it('refuses an access token that is not visible ASCII: exit 1', async () => {
    const url = await serve('{"access_token":"abc\\u001b[2Jdef","token_type":"Bearer"}');
    const result = await runCli(['token', '--print', '--client-id', 'demo', '--base-url', url], { env: { MKT_CLIENT_SECRET: 's' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('an access_token with characters a bearer token cannot have');
  });

  it.each(['json', 'ndjson'])('a symbol with C1 and bidi characters, never asked for: left out of the %s output, named on stderr without them', async (format) => {
    const url = await serve('{"data":[{"symbol":"EUR\\u009b31mUSD\\u202e","bid":1,"ask":2,"mid":1.5,"timestamp":"2026-11-22T12:00:00Z"}]}');
    const result = await runCli(['quotes', 'EURUSD', '--format', format], { env: { MKT_BASE_URL: url, MKT_TOKEN: 't', MKT_ORG: 'org_demo' } });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(RAW);
    expect(result.stdout).not.toContain('USD\\u202e');
    expect(result.stderr).not.toMatch(RAW);
    // Under a JSON format, a JSON line.
    expect(JSON.parse(result.stderr.split('\n')[0]!)).toEqual({
      warning: { code: 'unasked_quotes', message: 'the service sent quotes for symbols not asked for (EUR31mUSD); they are left out', hint: null },
    });
  });

  it('refuses a price with an absurd exponent instead of running out of memory: exit 1', async () => {
    const url = await serve('{"data":[{"symbol":"EURUSD","bid":1e600000000,"ask":2,"mid":1.5,"timestamp":"2026-11-22T12:00:00Z"}]}');
    const result = await runCli(['quotes', 'EURUSD', '--format', 'table'], { env: { MKT_BASE_URL: url, MKT_TOKEN: 't', MKT_ORG: 'org_demo' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('with a bid that is not a number (1e600000000)');
  });

  it('accepts exponents up to three digits and writes them out in the table', async () => {
    const url = await serve('{"data":[{"symbol":"TINY","bid":1E-8,"ask":2e-8,"mid":1.5E-8,"timestamp":"2026-11-22T12:00:00Z"}]}');
    const result = await runCli(['quotes', 'TINY', '--format', 'table'], { env: { MKT_BASE_URL: url, MKT_TOKEN: 't', MKT_ORG: 'org_demo' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('0.00000001');
    expect(result.stdout).toContain('0.000000015');
  });
});

describe('plain http', () => {
  it.each(['http://api.example.localhost:9', 'http://localhost.example.com:9'])('is refused to %s, a name that may leave the machine', async (url) => {
    const result = await runCli(['quotes', 'EURUSD', '--base-url', url], { env: { MKT_TOKEN: 't', MKT_ORG: 'org_demo' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to send credentials over plain http');
  });
});
