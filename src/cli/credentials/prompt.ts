// Interactive prompts on a terminal, loaded only when a command has to ask.
//
// An answer is checked here, not by inquirer's own `validate`: on a refusal inquirer types the
// refused text back into the field (password always, input by default), so a key typed again after
// a typo was sent as `demodemo.demo-secret`, hidden behind the mask. Each ask is a new prompt with an
// empty field, under the reason the last answer was refused.
import input from '@inquirer/input';
import password from '@inquirer/password';
import { AbortError } from '../../api/index.js';
import type { PromptOptions } from '../io.js';

/** Where the prompt reads keys and draws: the process's terminal, or a test's streams. */
export interface PromptStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

export async function promptOnTerminal(
  question: string, options: PromptOptions, signal: AbortSignal,
  streams: PromptStreams = { input: process.stdin, output: process.stderr },
): Promise<string> {
  // Each ask clears itself when answered: a refused one leaves only its reason, an accepted one
  // nothing (the command says what it did with the answer).
  const context = { ...streams, signal, clearPromptOnDone: true };
  try {
    for (;;) {
      const answer = options.mask ? await password({ message: question, mask: '*' }, context) : await input({ message: question }, context);
      const problem = options.validate?.(answer.trim());
      if (problem === undefined) return answer;
      streams.output.write(`> ${problem}\n`);
    }
  } catch (error) {
    // Ctrl-C at a prompt (inquirer's ExitPromptError, or our signal's AbortPromptError) is an
    // interrupt like any other: exit 130.
    const name = (error as Error).name;
    if (name === 'ExitPromptError' || name === 'AbortPromptError') throw new AbortError('interrupted', { cause: error });
    throw error;
  }
}
