// Interactive prompts on a terminal, loaded only when a command has to ask.
import input from '@inquirer/input';
import password from '@inquirer/password';
import type { PromptOptions } from './io.js';

export async function promptOnTerminal(question: string, options: PromptOptions, signal: AbortSignal): Promise<string> {
  const context = { input: process.stdin, output: process.stderr, signal, clearPromptOnDone: false };
  if (options.mask) return password({ message: question, mask: '*' }, context);
  return input({ message: question }, context);
}
