// No wait is handed to a timer unchecked: Node turns a setTimeout over 2^31-1 ms into 1 ms (with a
// TimeoutOverflowWarning), which made a watch asked to wait 30 days poll hundreds of times a second.
import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from '../../src/shared/sleep.js';

const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(warning.name);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

/** Whether `promise` settles within `ms` of real time. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true), () => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, ms));
  return settled;
}

describe('sleep', () => {
  it.each([
    ['2^31 ms (24.9 days)', 2 ** 31],
    ['30 days', 30 * 86_400_000],
    ['9e15 ms', 9e15],
    ['Infinity', Infinity],
  ])('%s: still waiting after 100 ms, no TimeoutOverflowWarning, and an abort ends it', async (_name, ms) => {
    process.on('warning', onWarning);
    const controller = new AbortController();
    const waiting = sleep(ms, controller.signal);
    expect(await settlesWithin(waiting, 100)).toBe(false);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(warnings).toEqual([]);
  });

  it.each([['0', 0], ['-5', -5], ['NaN', Number.NaN]])('%s ms: no wait', async (_name, ms) => {
    expect(await settlesWithin(sleep(ms), 50)).toBe(true);
  });
});
