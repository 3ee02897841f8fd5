// Counts the config file's writes: every write goes through a locked update (src/config/store.ts),
// so a spy on ConfigStore.withLock sees each one. vi.restoreAllMocks() (or the test's afterEach)
// removes the spy.
import { vi } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';

export function countConfigWrites(): { readonly count: number } {
  let count = 0;
  const withLock = ConfigStore.prototype.withLock;
  vi.spyOn(ConfigStore.prototype, 'withLock').mockImplementation(function (this: ConfigStore, work, waitMs) {
    return withLock.call(this, (locked) => work({
      data: locked.data,
      update: (change, members) => {
        count++;
        locked.update(change, members);
      },
    }), waitMs);
  });
  return { get count() { return count; } };
}
