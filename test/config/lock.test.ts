// The lock around the store's read-modify-write, in-process: parallel writers lose nothing, a live
// writer is waited for, a dead one's lock (and a dead taker's claim) is taken over at once. The
// child-process versions are in parallel-writers.test.ts and leftovers.test.ts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { tempDir } from '../helpers/cli.js';
import { deadLock, deadProcess } from './dead-writer.js';

function newStore() {
  const store = new ConfigStore({ dir: path.join(tempDir(), 'cfg') });
  return { store, lock: `${store.path}.lock` };
}

/** Sets a file's times `ms` from now: a lock whose age says nothing of its holder. */
function age(file: string, ms: number): void {
  const at = new Date(Date.now() + ms);
  fs.utimesSync(file, at, at);
}

describe('the store lock', () => {
  it('keeps every profile when many writers update different profiles at once', async () => {
    const dir = path.join(tempDir(), 'cfg');
    const stores = Array.from({ length: 12 }, () => new ConfigStore({ dir }));
    await Promise.all(stores.map((store, i) => store.updateProfile(`p${i}`, () => ({ org: `org_${i}` }))));
    expect(new ConfigStore({ dir }).profileNames()).toHaveLength(12);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it("waits for an older mkt's lock (empty) until it is stale, then takes it over", async () => {
    const { store, lock } = newStore();
    await store.updateProfile('a', () => ({ org: 'org_a' }));
    fs.writeFileSync(lock, '');
    age(lock, -60_000);
    await store.updateProfile('b', () => ({ org: 'org_b' }));
    expect(store.profileNames()).toEqual(['a', 'b']);
    expect(fs.existsSync(lock)).toBe(false);

    fs.writeFileSync(lock, '');
    const waiting = store.updateProfile('c', () => ({ org: 'org_c' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(new ConfigStore({ dir: store.dir }).profileNames()).toEqual(['a', 'b']);
    fs.rmSync(lock);
    await waiting;
    expect(store.profileNames()).toEqual(['a', 'b', 'c']);
  });

  it("waits for a live writer's lock, and takes it over the moment the writer dies", async () => {
    const { store, lock } = newStore();
    await store.updateProfile('a', () => ({ org: 'org_a' }));
    const writer = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(lock, deadLock(writer.pid!).replace('"start":"1"', '"start":""'));
      age(lock, 3_600_000);
      const waiting = store.updateProfile('b', () => ({ org: 'org_b' }));
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(new ConfigStore({ dir: store.dir }).profileNames()).toEqual(['a']);
      writer.kill('SIGKILL');
      await waiting;
    } finally {
      writer.kill('SIGKILL');
    }
    expect(store.profileNames()).toEqual(['a', 'b']);
    expect(fs.readdirSync(store.dir)).toEqual(['config.json']);
  });

  it('takes over the lock of a dead writer at once, even when its time says it is new', async () => {
    const { store, lock } = newStore();
    fs.mkdirSync(store.dir, { recursive: true });
    fs.writeFileSync(lock, deadLock(await deadProcess()));
    age(lock, 3_600_000);
    await store.updateProfile('a', () => ({ org: 'org_a' }));
    expect(store.profileNames()).toEqual(['a']);
    expect(fs.readdirSync(store.dir)).toEqual(['config.json']);
  });

  it.runIf(fs.existsSync('/proc/self/stat'))('does not take a pid that now belongs to another process for its writer', async () => {
    const { store, lock } = newStore();
    fs.mkdirSync(store.dir, { recursive: true });
    // This process's pid, but a start time that is not this process's: the writer was another.
    fs.writeFileSync(lock, deadLock(process.pid));
    age(lock, 3_600_000);
    await store.updateProfile('a', () => ({ org: 'org_a' }));
    expect(store.profileNames()).toEqual(['a']);
  });

  it('takes over a claim left by a writer that died while taking over a dead lock', async () => {
    const { store, lock } = newStore();
    fs.mkdirSync(store.dir, { recursive: true });
    const [first, second] = [await deadProcess(), await deadProcess()];
    fs.writeFileSync(lock, deadLock(first, 'firstwriter01'));
    age(lock, 3_600_000);
    fs.writeFileSync(`${lock}.takeover-firstwriter01`, deadLock(second, 'secondwriter2'));
    fs.writeFileSync(`${lock}.new-secondwriter2`, deadLock(second, 'secondwriter2'));
    await store.updateProfile('a', () => ({ org: 'org_a' }));
    expect(store.profileNames()).toEqual(['a']);
    expect(fs.readdirSync(store.dir)).toEqual(['config.json']);
  });
});
