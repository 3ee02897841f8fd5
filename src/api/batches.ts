// Long lists go out in batches: each item once (in any case), split into batches, the first sent
// alone (its answer tells the rate limit before the others spend any of it, and whether the service
// takes that many at once), then the rest `concurrency` at a time. One failed batch fails the run:
// the others are aborted rather than waited for.
import { AbortError } from './errors.js';
import type { CallProgress } from './transport.js';

interface BatchRun<T> {
  items: readonly string[];
  size: number;
  concurrency: number;
  /** The caller's signal: its abort ends the run with an AbortError. */
  signal: AbortSignal | undefined;
  /** Aborted when the run ends early: every batch is sent with its signal. */
  controller: AbortController;
  /** Kept up to date: `total` is the batches, `done` those answered. */
  progress: CallProgress;
  /** The smaller batch size a failure of the first batch states, or undefined to fail. */
  resize?: (error: unknown, sent: number) => number | undefined;
  onResize?: (size: number, batches: number) => void;
  send: (batch: string[]) => Promise<T>;
  onDone?: (done: number, total: number) => void;
}

/** The results in the order of the batches. */
export async function runBatches<T>(run: BatchRun<T>): Promise<T[]> {
  const { items, controller, progress } = run;
  let batches = split(items, run.size);
  progress.total = batches.length;
  const parent = run.signal;
  const onAbort = () => controller.abort();
  if (parent?.aborted) throw new AbortError();
  parent?.addEventListener('abort', onAbort, { once: true });

  const results: T[] = [];
  const sendOne = async (index: number) => {
    results[index] = await run.send(batches[index]!);
    progress.done++;
    run.onDone?.(progress.done, batches.length);
  };
  const first = async () => {
    for (;;) {
      try {
        return await sendOne(0);
      } catch (error) {
        const size = run.resize?.(error, batches[0]!.length);
        if (size === undefined) throw error;
        batches = split(items, size);
        progress.total = batches.length;
        run.onResize?.(size, batches.length);
      }
    }
  };
  let next = 1;
  let failure: unknown;
  const worker = async () => {
    while (failure === undefined && next < batches.length) {
      const index = next++;
      try {
        await sendOne(index);
      } catch (error) {
        failure ??= error;
        controller.abort();
      }
    }
  };
  try {
    if (batches.length > 0) await first();
    await Promise.all(Array.from({ length: Math.min(run.concurrency, batches.length - 1) }, worker));
  } catch (error) {
    failure ??= error;
  } finally {
    parent?.removeEventListener('abort', onAbort);
  }
  if (failure !== undefined) throw parent?.aborted ? new AbortError() : failure;
  return results;
}

/** Each item once, in first-seen order; the same in another case is the same item. */
export function uniqueInAnyCase(items: readonly string[]): string[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.toUpperCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function split(items: readonly string[], size: number): string[][] {
  const batches: string[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}
