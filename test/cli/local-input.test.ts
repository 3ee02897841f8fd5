// Issue 13, the command line's local faults: CA files without a size (item 2), tokens that cannot be
// a bearer token (item 6), and quotes that parse but cannot be right under --strict (item 9); and
// input over its cap named in words that agree with it (issue 36 item 6).
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { sendQuotes, useServers, type FaultServer } from '../helpers/fault-server.js';
import { quote, quotesJson } from '../helpers/quotes.js';

const servers = useServers();

/** Quotes for the symbols asked for, or always `body`. */
function quotesServer(body?: string): Promise<FaultServer> {
  return body === undefined ? servers.start((req, res) => sendQuotes(req, res)) : servers.answering(200, body);
}

const env = (url: string, extra: Record<string, string> = {}) => ({ MKT_TOKEN: 'tok_local_123456', MKT_ORG: 'org_demo', MKT_BASE_URL: url, ...extra });

describe('CA files are read with a byte cap (issue 13 item 2)', () => {
  const pem = () => {
    const file = path.join(tempDir(), 'ca.pem');
    fs.writeFileSync(file, '-----BEGIN CERTIFICATE-----\nnot really\n-----END CERTIFICATE-----\n');
    return file;
  };

  it.each([
    ['--ca-file /dev/zero', ['--ca-file', '/dev/zero'], {}, 'the CA file /dev/zero (from --ca-file) is larger than 4 MiB'],
    ['MKT_CA_FILE=/dev/zero', [], { MKT_CA_FILE: '/dev/zero' }, 'the CA file /dev/zero (from MKT_CA_FILE) is larger than 4 MiB'],
    ['NODE_EXTRA_CA_CERTS=/dev/zero', ['--ca-file', 'PEM'], { NODE_EXTRA_CA_CERTS: '/dev/zero' }, 'the CA file /dev/zero (from NODE_EXTRA_CA_CERTS) is larger than 4 MiB'],
  ] as const)('%s: exit 2 naming the limit, and no request', async (_name, flags, extra, message) => {
    const server = await quotesServer();
    const argv = flags.map((flag) => (flag === 'PEM' ? pem() : flag));
    const result = await runCli(['quotes', 'EURUSD', ...argv], { env: env(server.url, extra) });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: ${message}\nhint: mkt reads at most 4 MiB of it\n`);
    expect(server.requests).toHaveLength(0);
  });

  it('a file that holds no certificate, and one that is not there: exit 2', async () => {
    const server = await quotesServer();
    const empty = path.join(tempDir(), 'empty.pem');
    fs.writeFileSync(empty, 'hello\n');
    const none = await runCli(['quotes', 'EURUSD', '--ca-file', empty], { env: env(server.url) });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`${empty} (from --ca-file) holds no PEM certificate`);
    const missing = await runCli(['quotes', 'EURUSD', '--ca-file', `${empty}.nope`], { env: env(server.url) });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read the CA file ${empty}.nope (from --ca-file): no such file`);
  });
});

describe('input over its cap is named with a verb that agrees (issue 36 item 6)', () => {
  /** 16 MiB and one byte on standard input, a MiB at a time. */
  const overCap = () => Readable.from((function* () {
    for (let mib = 0; mib < 16; mib++) yield Buffer.alloc(1024 * 1024, 'A');
    yield Buffer.from('A');
  })());

  it.each([
    ['the symbols on standard input', ['quotes', '--symbols-file', '-'], 'the symbols on standard input are larger than 16 MiB', 'them'],
    ['the positions on standard input', ['value', '-', '--base', 'USD'], 'the positions on standard input are larger than 16 MiB', 'them'],
    ['a symbols file, one thing', ['quotes', '--symbols-file', '/dev/zero'], '--symbols-file /dev/zero is larger than 16 MiB', 'it'],
  ])('%s: exit 2, and no request', async (_name, argv, message, pronoun) => {
    const server = await quotesServer();
    const result = await runCli(argv, { env: env(server.url), stdin: overCap() });
    expect(result.stderr).toBe(`error: ${message}\nhint: mkt reads at most 16 MiB of ${pronoun}\n`);
    expect(result.code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});

describe('a token that cannot be a bearer token is a local error (issue 13 item 6)', () => {
  it.each([
    ['a control character', 'tok_abc\u0007def'],
    ['a line break', 'tok_abc\ndef'],
    ['a space', 'tok abc'],
  ])('MKT_TOKEN with %s: exit 2 naming MKT_TOKEN, never a network error, and nothing sent', async (_name, token) => {
    const server = await quotesServer();
    const result = await runCli(['quotes', 'EURUSD'], { env: env(server.url, { MKT_TOKEN: token }) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: MKT_TOKEN holds a character a bearer token cannot have/);
    expect(result.stderr).not.toContain('abc');
    expect(server.requests).toHaveLength(0);
    const status = await runCli(['status'], { env: env(server.url, { MKT_TOKEN: token }) });
    expect(status.code).toBe(4);
    expect(status.stdout).toContain('Problem: MKT_TOKEN holds a character a bearer token cannot have');
  });

  it('a stored token with a line break: exit 4 naming the file and the profile, and nothing sent', async () => {
    const server = await quotesServer();
    const configDir = path.join(tempDir(), 'cfg');
    fs.mkdirSync(configDir, { mode: 0o700 });
    const file = path.join(configDir, 'config.json');
    const token = { access_token: 'tok_abc\ndef', token_type: 'Bearer', base_url: server.url, source: 'cli-login', obtained_at: new Date().toISOString() };
    fs.writeFileSync(file, JSON.stringify({ profiles: { default: { org: 'org_demo', token } } }), { mode: 0o600 });
    const result = await runCli(['quotes', 'EURUSD'], { configDir, env: { MKT_BASE_URL: server.url } });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(`error: the stored token holds a character a bearer token cannot have (a line break, say) (${file}, profile default)\nhint: run \`mkt login\` for a new token\n`);
    expect(server.requests).toHaveLength(0);
    expect((await runCli(['status'], { configDir, env: { MKT_BASE_URL: server.url } })).code).toBe(4);
  });
});

describe('--strict refuses quotes that cannot be right (issue 13 item 9)', () => {
  const body = quotesJson([
    quote('GOOD', '1.1', '1.2', '1.15'),
    quote('NEG', '-1.1', '1.2', '0.05'),
    quote('HUGE', '1e999', '2e999', '1.5e999'),
    quote('OUTSIDE', '1.1', '1.2', '1.3'),
    quote('NODAY', '1.1', '1.2', '1.15', '2026-02-30T10:00:00Z'),
  ]);
  const symbols = ['GOOD', 'NEG', 'HUGE', 'OUTSIDE', 'NODAY'];

  it('exit 3 naming each quote and what is wrong with it, after the data', async () => {
    const server = await quotesServer(body);
    const result = await runCli(['quotes', ...symbols, '--strict'], { env: env(server.url), now: () => Date.UTC(2025, 0, 6, 15) });
    expect(result.code).toBe(3);
    expect(result.stdout.split('\n')).toHaveLength(7);
    expect(result.stderr).toBe('error: 4 quotes that cannot be right: NEG (bid is negative), HUGE (bid is out of range, ask is out of range, mid is out of range), '
      + 'OUTSIDE (mid is outside bid..ask), NODAY (timestamp names a day that does not exist)\n'
      + 'hint: the data above is as the service sent it; without --strict, missing and stale quotes are warnings and exit 0\n');
  });

  it('without --strict they are written as sent, exit 0', async () => {
    const server = await quotesServer(body);
    const result = await runCli(['quotes', ...symbols], { env: env(server.url) });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('NEG\t-1.1\t1.2\t0.05\t');
  });
});
