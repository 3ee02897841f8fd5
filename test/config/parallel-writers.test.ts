// Real processes writing one config file at once, each round starting from a lock left behind by a
// writer that is gone: no update may be lost, and none may wait out a dead writer's lock.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';
import { deadLock, deadProcess } from './dead-writer.js';

const WRITERS = 20;
const ROUNDS = 6;
const VALUES = ['json', 'csv', 'tsv', 'ndjson', 'table'];

describe('parallel writers of the config file', () => {
  it(`lose no update: ${WRITERS} processes x ${ROUNDS} rounds, each round after a stale or dead lock`, async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    const lock = `${file}.lock`;
    const dead = await deadProcess();
    let lost = 0;
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Even rounds: an empty lock older than the stale threshold (what an older mkt leaves);
      // odd rounds: the lock of a writer that was killed (its process is gone).
      if (round % 2 === 0) {
        fs.writeFileSync(lock, '');
        const old = new Date(Date.now() - 60_000);
        fs.utimesSync(lock, old, old);
      } else {
        fs.writeFileSync(lock, deadLock(dead));
      }
      const value = VALUES[round % VALUES.length]!;
      const runs = await Promise.all(Array.from({ length: WRITERS }, (_, i) =>
        runBin(['config', 'set', 'format', value, '--profile', `p${i}`], { env: { MKT_CONFIG_DIR: dir }, timeoutMs: 60_000 })));
      for (const [i, run] of runs.entries()) {
        if (run.code !== 0) failures.push(`round ${round}, p${i}: exit ${run.code}: ${run.stderr.trim()}`);
      }
      const profiles = JSON.parse(fs.readFileSync(file, 'utf8')).profiles as Record<string, { format?: string }>;
      lost += Array.from({ length: WRITERS }, (_, i) => profiles[`p${i}`]?.format === value).filter((kept) => !kept).length;
    }
    expect(failures).toEqual([]);
    expect(lost, `updates lost of ${WRITERS * ROUNDS}`).toBe(0);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  }, 240_000);
});
