// The terminal prompt itself (inquirer), in-process on streams the test types into: a refused
// answer is said, and the next ask starts with an empty field, masked or not. On a real terminal:
// prompt-tty.test.ts.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { promptOnTerminal } from '../../../src/cli/credentials/prompt.js';

const API_KEY = /^[^.\s]+\.[^.\s]+$/;
const keyProblem = 'an API key is <client_id>.<client_secret>';
const ORG = /^org_\w+$/;
const orgProblem = 'an organization is org_<id>';

/** Streams standing in for the terminal; `typed` resolves once the output shows `text` (at most 5 s). */
function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  // Each prompt pipes into the output and ends it when done, as pipe() does to any stream but
  // process.stdout and process.stderr, which the real prompts draw on: this one stays open too.
  output.end = () => output;
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString('utf8')));
  const shows = (text: string, after = 0) => new Promise<void>((resolve, reject) => {
    const deadline = Date.now() + 5000;
    const check = () => {
      if (shown.indexOf(text, after) !== -1) resolve();
      else if (Date.now() > deadline) reject(new Error(`the prompt never showed ${JSON.stringify(text)}; it showed ${JSON.stringify(shown)}`));
      else setTimeout(check, 10);
    };
    check();
  });
  return { input, output, shows, shown: () => shown };
}

/** `promise`, or a failure naming `what` after 5 s (a prompt that refused the answer again never ends). */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the prompt did not take ${what} within 5 s`)), 5000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('a refused answer at the prompt', () => {
  it.each([
    ['the masked prompt', true, 'demo', 'demo.demo-secret', (answer: string) => (API_KEY.test(answer) ? undefined : keyProblem), keyProblem],
    ['the visible prompt', false, 'demo', 'org_demo', (answer: string) => (ORG.test(answer) ? undefined : orgProblem), orgProblem],
  ])('%s: says why, and the next ask starts empty', async (_name, mask, wrong, right, validate, problem) => {
    const { input, output, shows, shown } = terminal();
    const answered = promptOnTerminal('Answer:', { mask, validate }, new AbortController().signal, { input, output });
    await shows('Answer:');
    input.write(`${wrong}\r`);
    await shows(problem);
    const refusedAt = shown().indexOf(problem) + problem.length;
    await shows('Answer:', refusedAt); // asked again
    input.write(`${right}\r`);
    // What was typed the first time is not part of the second answer.
    expect(await within(answered, `the answer ${right}`)).toBe(right);
    expect(shown()).toContain(`> ${problem}\n`);
    // The field shown after the refusal held only what was typed again: as many stars as `right`
    // has characters, never the refused text's too.
    const after = shown().slice(refusedAt);
    if (mask) {
      expect(after).toContain('*'.repeat(right.length));
      expect(after).not.toContain('*'.repeat(right.length + 1));
    } else {
      expect(after).not.toContain(`${wrong}${right}`);
    }
  });

  it('Ctrl-C at the prompt is an interrupt (AbortError, exit 130)', async () => {
    const { input, output, shows } = terminal();
    const answered = promptOnTerminal('Answer:', { mask: true }, new AbortController().signal, { input, output });
    await shows('Answer:');
    input.write('\u0003');
    await expect(answered).rejects.toMatchObject({ name: 'AbortError', message: 'interrupted' });
  });
});
