// A clock that moves only when something sleeps on it: waits are recorded and cost no real time.
export interface FakeTime {
  now: () => number;
  sleeps: number[];
  sleep: (ms: number) => Promise<void>;
}

export function fakeTime(start = 1_000_000): FakeTime {
  let time = start;
  const sleeps: number[] = [];
  return {
    now: () => time,
    sleeps,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      await Promise.resolve();
      time += ms;
    },
  };
}

/**
 * The real clock, moved ahead by every sleep on it: waits are recorded and cost no real time, and
 * a server that stamps its answers with the real time (or keeps its own windows on this clock) is
 * never ahead of it, however slowly the machine runs the test.
 */
export function skippingTime(): FakeTime {
  let skipped = 0;
  const sleeps: number[] = [];
  return {
    now: () => Date.now() + skipped,
    sleeps,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      await Promise.resolve();
      skipped += ms;
    },
  };
}
