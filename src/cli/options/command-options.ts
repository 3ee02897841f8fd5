// A command's options with the shared ones given before it (`mkt --profile ci quotes EURUSD`).
import type { Command } from 'commander';

/**
 * The options of `command` and of the commands above it, the nearest winning: a flag after the
 * command overrides the same flag before it. (commander's optsWithGlobals lets the program's win.)
 */
export function commandOptions<T extends object>(command: Command): T {
  const chain: Command[] = [];
  for (let current: Command | null = command; current !== null; current = current.parent) chain.unshift(current);
  return Object.assign({}, ...chain.map((each) => each.opts())) as T;
}
