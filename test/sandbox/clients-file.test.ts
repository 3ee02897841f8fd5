// --clients files: validated whole, with messages naming the file, the entry and the field.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadClientsFile, SandboxConfigError } from '../../src/sandbox/index.js';
import { cliLogin, getQuotes, getToken, startTestSandbox } from '../helpers/sandbox.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mkt-clients-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const target = path.join(dir, name);
  writeFileSync(target, content);
  return target;
}

const valid = { client_id: 'ci', client_secret: 's3cret.with.dots', orgs: ['org_ci', 'org_ci2'], scopes: ['market.read'] };

describe('loadClientsFile', () => {
  it('reads a JSON array of clients (a BOM is tolerated)', async () => {
    const target = file('ok.json', `\uFEFF${JSON.stringify([valid, { ...valid, client_id: 'fast', profile: 'approved' }])}`);
    expect(await loadClientsFile(target)).toEqual([valid, { ...valid, client_id: 'fast', profile: 'approved' }]);
  });

  it('reads an empty array', async () => {
    expect(await loadClientsFile(file('empty.json', '[]'))).toEqual([]);
  });

  it('stops reading a file without a size (a device) at 1 MiB, naming the limit', async () => {
    const attempt = loadClientsFile('/dev/zero');
    await expect(attempt).rejects.toBeInstanceOf(SandboxConfigError);
    await expect(attempt).rejects.toThrow('clients file /dev/zero is larger than 1 MiB');
  });

  it('stops reading when its signal aborts', async () => {
    const controller = new AbortController();
    // /dev/zero at full speed reaches the cap in milliseconds; abort before the first chunk.
    const attempt = loadClientsFile('/dev/zero', controller.signal);
    controller.abort();
    await expect(attempt).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('never quotes a file it cannot parse: it holds secrets', async () => {
    const attempt = loadClientsFile(file('secret.json', '[{"client_id": "ci", "client_secret":SuperSecret123}]'));
    await expect(attempt).rejects.toThrow(/secret\.json is not valid JSON/);
    await expect(attempt).rejects.not.toThrow(/SuperSecre/);
  });

  it.each([
    ['a missing file', () => path.join(dir, 'missing.json'), /cannot read clients file .*missing\.json: no such file/],
    ['a directory', () => { const sub = path.join(dir, 'sub'); mkdirSync(sub, { recursive: true }); return sub; }, /it is a directory/],
    ['invalid JSON', () => file('bad.json', '[{"client_id": }]'), /bad\.json is not valid JSON/],
    ['an object instead of an array', () => file('object.json', JSON.stringify({ clients: [valid] })), /must hold a JSON array/],
    ['an entry that is not an object', () => file('string.json', '["ci"]'), /clients\[0\] must be an object/],
    ['an unknown field', () => file('unknown.json', JSON.stringify([{ ...valid, org: 'org_ci' }])), /clients\[0\] has an unknown field "org"/],
    ['a client_id with a dot', () => file('dot.json', JSON.stringify([{ ...valid, client_id: 'c.i' }])), /clients\[0\]: client_id/],
    ['a missing client_id', () => file('noid.json', JSON.stringify([{ ...valid, client_id: undefined }])), /client_id must be/],
    ['an empty secret', () => file('nosecret.json', JSON.stringify([{ ...valid, client_secret: '' }])), /client_secret must be/],
    ['a secret with a space', () => file('space.json', JSON.stringify([{ ...valid, client_secret: 'a b' }])), /client_secret must be/],
    ['no orgs', () => file('noorgs.json', JSON.stringify([{ ...valid, orgs: [] }])), /orgs must be a non-empty array/],
    ['a malformed org', () => file('badorg.json', JSON.stringify([{ ...valid, orgs: ['ci'] }])), /orgs must be/],
    ['scopes not an array', () => file('scopes.json', JSON.stringify([{ ...valid, scopes: 'market.read' }])), /scopes must be an array/],
    ['a scope with a quote', () => file('scope.json', JSON.stringify([{ ...valid, scopes: ['market"read'] }])), /scopes must be/],
    ['an unknown profile', () => file('profile.json', JSON.stringify([{ ...valid, profile: 'gold' }])), /profile must be "standard" or "approved"/],
    ['a repeated client_id', () => file('twice.json', JSON.stringify([valid, valid])), /clients\[1\]: client_id "ci" is defined twice/],
    ['a built-in client_id', () => file('builtin.json', JSON.stringify([{ ...valid, client_id: 'noscope' }])), /"noscope" is a built-in client/],
  ])('rejects %s with a clear SandboxConfigError', async (_name, target, pattern) => {
    const attempt = loadClientsFile(target());
    await expect(attempt).rejects.toBeInstanceOf(SandboxConfigError);
    await expect(attempt).rejects.toThrow(pattern);
  });

  it('gives the loaded clients working credentials, organizations and profiles', async () => {
    const clients = await loadClientsFile(file('run.json', JSON.stringify([valid, { ...valid, client_id: 'fast', profile: 'approved' }])));
    const sb = await startTestSandbox({ clients });
    try {
      const token = await getToken(sb.url, 'ci', 's3cret.with.dots');
      expect((await getQuotes(sb.url, token, 'symbols=EURUSD', 'org_ci2')).status).toBe(200);
      const login = await cliLogin(sb.url, 'ci.s3cret.with.dots', 'org_ci');
      expect((await getQuotes(sb.url, login, 'symbols=EURUSD', 'org_ci')).headers.get('ratelimit-limit')).toBe('60');
      const fast = await getToken(sb.url, 'fast', 's3cret.with.dots');
      expect((await getQuotes(sb.url, fast, 'symbols=EURUSD', 'org_ci')).headers.get('ratelimit-limit')).toBe('120');
      // The built-ins are still there.
      expect((await getQuotes(sb.url, await getToken(sb.url), 'symbols=EURUSD')).status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});
