// Interactive prompts on a terminal, loaded only when a command has to ask.
import input from '@inquirer/input';
import password from '@inquirer/password';
import { AbortError } from '../api/index.js';
import type { PromptOptions } from './io.js';

export async function promptOnTerminal(question: string, options: PromptOptions, signal: AbortSignal): Promise<string> {
  const context = { input: process.stdin, output: process.stderr, signal, clearPromptOnDone: false };
  const validate = (answer: string) => options.validate?.(answer.trim()) ?? true;
  try {
    if (options.mask) return await password({ message: question, mask: '*', validate }, context);
    return await input({ message: question, validate }, context);
  } catch (error) {
    // Ctrl-C at a prompt (inquirer's ExitPromptError, or our signal's AbortPromptError) is an
    // interrupt like any other: exit 130.
    const name = (error as Error).name;
    if (name === 'ExitPromptError' || name === 'AbortPromptError') throw new AbortError('interrupted', { cause: error });
    throw error;
  }
}
