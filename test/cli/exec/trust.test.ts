// The --exec program is held to the config directory's rule (src/config/trust.ts, as ssh holds
// ~/.ssh): a program that other users can change, in a directory they can change without the sticky
// bit, or that belongs to another user (root aside), is refused with exit 2 before any request, in
// --exec's own words. Modes are tried as the test's user; another user's files and groups as root,
// mkt run as nobody through setpriv and with account files of the test's own (test/config/as-another-user.ts).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/api/index.js';
import type { BinResult } from '../../helpers/bin.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { sendTheseQuotes, useServers, type FaultServer } from '../../helpers/fault-server.js';
import { asRoot, canBindAccounts, cannotRunUnprivileged, NOBODY, reachableDir, runUnprivileged, runWithAccounts, SOLO, TEAM } from '../../config/as-another-user.js';

const posix = process.platform !== 'win32';
const servers = useServers();
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const QUOTES: Quote[] = [{ symbol: 'EURUSD', bid: '1.08501', ask: '1.08511', mid: '1.08506', timestamp: '2026-01-05T14:30:15.250Z' }];
const WATCH = ['quotes', 'EURUSD', '--watch', '--until', 'EURUSD.bid > 1'];
const RISK = 'who could make mkt run what they like';

let server: FaultServer;
async function quotesServer(): Promise<FaultServer> {
  server = await servers.start((req, res) => sendTheseQuotes(req, res, QUOTES));
  return server;
}

/** A new directory (`parent` or a temporary one), removed after the test. */
function dir(parent?: string, name = 'bin', mode = 0o700): string {
  const made = parent === undefined ? tempDir('mkt-exec-trust-') : path.join(parent, name);
  if (parent === undefined) dirs.push(made);
  else fs.mkdirSync(made);
  fs.chmodSync(made, mode);
  return made;
}

/** `notify`, which says so, in `where`, with `mode`. */
function notify(where: string, mode = 0o755): string {
  const file = path.join(where, 'notify');
  fs.writeFileSync(file, '#!/bin/sh\necho notified\n');
  fs.chmodSync(file, mode);
  return file;
}

async function watch(program: string, env: Record<string, string> = {}) {
  return runCli([...WATCH, '--exec', program], { env: { PATH: process.env.PATH, MKT_BASE_URL: server.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo', ...env } });
}

function expectRefused(result: { code: number | null; stdout: string; stderr: string }, program: string, message: string, hint: string): void {
  expect(result.stderr).toBe(`error: --exec ${JSON.stringify(program)}: ${message}, ${RISK}\nhint: ${hint}\n`);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(server.requests).toHaveLength(0);
}

function expectRan(result: { code: number | null; stdout: string; stderr: string } | BinResult): void {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(/\nnotified\n$/);
}

describe.runIf(posix)('a program that others can change is refused before any request (issue 36 item 3)', () => {
  it('one that all can write to (0777)', async () => {
    await quotesServer();
    const file = notify(dir(), 0o777);
    expectRefused(await watch(file), file, `${file} can be changed by other users (mode 0777)`, `chmod o-w ${file}`);
  });

  it('one in a directory that all can write to, without the sticky bit', async () => {
    await quotesServer();
    const bin = dir(dir(), 'bin', 0o777);
    const file = notify(bin);
    expectRefused(await watch(file), file, `${bin}, which holds it, can be changed by other users (mode 0777)`,
      `chmod o-w ${bin} (or chmod +t ${bin}, as /tmp is, if it is meant to be shared)`);
  });

  it('one below such a directory', async () => {
    await quotesServer();
    const open = dir(dir(), 'open', 0o777);
    const file = notify(dir(open, 'bin', 0o755));
    expectRefused(await watch(file), file, `${open}, above it, can be changed by other users (mode 0777)`, `chmod o-w ${open} (or chmod +t ${open}, as /tmp is, if it is meant to be shared)`);
  });

  it('found on PATH: the file found is named', async () => {
    await quotesServer();
    const bin = dir(dir(), 'bin', 0o777);
    const file = notify(bin);
    expectRefused(await watch('notify', { PATH: `${bin}:${process.env.PATH}` }), 'notify', `${bin}, which holds it, can be changed by other users (mode 0777)`, `chmod o-w ${bin} (or chmod +t ${bin}, as /tmp is, if it is meant to be shared)`);
    expect(fs.existsSync(file)).toBe(true);
  });

  it('a link of this user\'s own to a program in a directory that all can write to', async () => {
    await quotesServer();
    const open = dir(dir(), 'open', 0o777);
    const target = notify(open);
    const link = path.join(dir(), 'notify');
    fs.symlinkSync(target, link);
    expectRefused(await watch(link), link, `${open}, above the file it links to, can be changed by other users (mode 0777)`, `chmod o-w ${open} (or chmod +t ${open}, as /tmp is, if it is meant to be shared)`);
  });

  it('as a control: a program of its own in a directory shared with the sticky bit (1777), as /tmp is, runs', async () => {
    await quotesServer();
    const file = notify(dir(dir(), 'shared', 0o1777));
    expectRan(await watch(file));
  });

  it.runIf(asRoot)('one that belongs to another user (nobody), in a directory of its own', async () => {
    await quotesServer();
    const file = notify(dir());
    fs.chownSync(file, NOBODY, NOBODY);
    expectRefused(await watch(file), file, `${file} belongs to another user (uid ${NOBODY}, nobody)`, `use a program of your own or root's, or, if ${file} should be yours: sudo chown "$USER" ${file}`);
  });
});

if (asRoot && cannotRunUnprivileged !== undefined) console.warn(`test/cli/exec/trust.test.ts: the case as an ordinary user is skipped: ${cannotRunUnprivileged}`);

describe.runIf(posix)('root aside, as an ordinary user (nobody)', () => {
  it("root's program runs; another user's is refused", async ({ skip }) => {
    skip(!asRoot, 'only root can give a file to another user');
    skip(cannotRunUnprivileged !== undefined, cannotRunUnprivileged);
    await quotesServer();
    const env = { MKT_BASE_URL: server.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo' };
    const roots = reachableDir();
    dirs.push(roots);
    fs.chmodSync(roots, 0o755);
    const file = notify(roots);
    expectRan(await runUnprivileged([...WATCH, '--exec', file], { ...env, MKT_CONFIG_DIR: path.join(roots, 'config') }));

    const requests = server.requests.length;
    const others = reachableDir();
    dirs.push(others);
    fs.chmodSync(others, 0o755);
    const theirs = notify(others);
    fs.chownSync(theirs, NOBODY - 1, NOBODY - 1);
    const refused = await runUnprivileged([...WATCH, '--exec', theirs], { ...env, MKT_CONFIG_DIR: path.join(others, 'config') });
    expect(refused.stderr).toMatch(new RegExp(`^error: --exec "${theirs}": ${theirs} belongs to another user \\(uid ${NOBODY - 1}[,)]`));
    expect(refused.code).toBe(2);
    expect(server.requests).toHaveLength(requests);
  });
});

if (!canBindAccounts) console.warn('test/cli/exec/trust.test.ts: the group cases are skipped: they need root and unshare -m');

describe.runIf(canBindAccounts)('a program its group can write to', () => {
  it('is refused when the group has another member, and runs when the group is the user\'s alone', async () => {
    await quotesServer();
    const env = { MKT_BASE_URL: server.url, MKT_TOKEN: 'scripted-token', MKT_ORG: 'org_demo', MKT_CONFIG_DIR: path.join(dir(), 'config') };
    const shared = notify(dir(), 0o775);
    fs.chownSync(shared, 0, TEAM);
    const refused = await runWithAccounts([...WATCH, '--exec', shared], env);
    expectRefused(refused, shared, `${shared} can be changed by the other members of group ${TEAM} (mode 0775)`, `chmod g-w ${shared}`);

    const own = notify(dir(), 0o775);
    fs.chownSync(own, 0, SOLO);
    expectRan(await runWithAccounts([...WATCH, '--exec', own], env));
  });
});
