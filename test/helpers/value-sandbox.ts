// The sandbox that mkt value's test files share within a file: started before their tests with limits
// no file reaches, a token of the demo client, a scratch directory for positions files, and the log
// of the requests it answered, emptied before each test; all of it gone after the file.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { RequestLogEntry } from '../../src/sandbox/index.js';
import { tempDir } from './cli.js';
import { getToken, startTestSandbox, type TestSandbox } from './sandbox.js';

export interface ValueSandbox {
  sb: TestSandbox;
  token: string;
  /** The scratch directory (removed after the file). */
  dir: string;
  /** The requests the sandbox answered since the test began. */
  log: RequestLogEntry[];
  /** Writes `text` to `name` in the scratch directory; its path. */
  file(name: string, text: string): string;
}

/** Registers the hooks of the file's sandbox; its members are set once the file's tests begin. */
export function useValueSandbox(prefix: string): ValueSandbox {
  const log: RequestLogEntry[] = [];
  const fixture: ValueSandbox = {
    sb: undefined as unknown as TestSandbox,
    token: '',
    dir: '',
    log,
    file(name, text) {
      const at = path.join(fixture.dir, name);
      fs.writeFileSync(at, text);
      return at;
    },
  };
  beforeAll(async () => {
    fixture.sb = await startTestSandbox({ limits: { perMinute: 1000, perHour: 100_000, perDay: 100_000 }, onRequest: (entry) => log.push(entry) });
    fixture.token = await getToken(fixture.sb.url);
    fixture.dir = tempDir(prefix);
  });
  afterAll(async () => {
    await fixture.sb.close();
    fs.rmSync(fixture.dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    log.length = 0;
  });
  return fixture;
}
