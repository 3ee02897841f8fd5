// Parallel read-modify-writes of the store lose nothing (in-process; the child-process version is
// in test/cli/bin.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { tempDir } from '../helpers/cli.js';

describe('the store lock', () => {
  it('keeps every profile when many writers update different profiles at once', async () => {
    const dir = path.join(tempDir(), 'cfg');
    const stores = Array.from({ length: 12 }, () => new ConfigStore({ dir }));
    await Promise.all(stores.map((store, i) => store.updateProfile(`p${i}`, () => ({ org: `org_${i}` }))));
    expect(new ConfigStore({ dir }).profileNames()).toHaveLength(12);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('waits for a live lock and takes over a stale one', async () => {
    const dir = path.join(tempDir(), 'cfg');
    const store = new ConfigStore({ dir });
    await store.updateProfile('a', () => ({ org: 'org_a' }));
    const lock = `${store.path}.lock`;
    fs.writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    await store.updateProfile('b', () => ({ org: 'org_b' }));
    expect(store.profileNames()).toEqual(['a', 'b']);
    expect(fs.existsSync(lock)).toBe(false);

    fs.writeFileSync(lock, '');
    const waiting = store.updateProfile('c', () => ({ org: 'org_c' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(store.profileNames()).toEqual(['a', 'b']);
    fs.rmSync(lock);
    await waiting;
    expect(store.profileNames()).toEqual(['a', 'b', 'c']);
  });
});
