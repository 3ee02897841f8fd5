// Side-by-side measurement: commands run in strict rotation (A B A B ..., or A B C A B C ...), so
// that drift in the machine (frequency, caches, other load) falls on all of them alike; medians.

/** Median, quartiles, min and max of a list of numbers. */
export function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => {
    if (sorted.length === 0) return Number.NaN;
    const index = (sorted.length - 1) * q;
    const low = Math.floor(index);
    const high = Math.ceil(index);
    return sorted[low] + (sorted[high] - sorted[low]) * (index - low);
  };
  return { n: sorted.length, median: at(0.5), q1: at(0.25), q3: at(0.75), min: sorted[0], max: sorted[sorted.length - 1] };
}

/**
 * Runs each command `warmup` times (checking the first output with `cmd.check`), then `runs`
 * rotations of all of them, measured with `measure(cmd) -> {value}`. Bounded in count and in time:
 * after `minRuns` rotations, no new rotation starts once `budgetMs` has passed.
 */
export function alternate({ commands, runs, warmup, minRuns, budgetMs, measure, log }) {
  for (let i = 0; i < warmup; i++) {
    for (const cmd of commands) {
      const result = measure(cmd);
      if (i === 0 && cmd.check) cmd.check(result.stdout);
    }
  }
  const samples = commands.map(() => []);
  const deadline = Date.now() + budgetMs;
  let stoppedEarly = false;
  for (let i = 0; i < runs; i++) {
    if (i >= minRuns && Date.now() > deadline) {
      stoppedEarly = true;
      break;
    }
    commands.forEach((cmd, k) => samples[k].push(measure(cmd).value));
  }
  if (stoppedEarly) log(`  stopped after ${samples[0].length} of ${runs} rotations: time budget of ${Math.round(budgetMs / 1000)} s spent`);
  return {
    stoppedEarly,
    series: commands.map((cmd, k) => ({ label: cmd.label, command: [cmd.file, ...cmd.args].join(' '), samples: samples[k], ...summarize(samples[k]) })),
  };
}
