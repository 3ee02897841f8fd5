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
