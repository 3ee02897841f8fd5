// mkt completion bash|zsh|fish (issue 7). Placeholder until the generator lands.
import type { Command } from 'commander';
import type { Deps } from '../deps.js';
import type { RunState } from '../program.js';

export function registerCompletion(_program: Command, _deps: Deps, _state: RunState): void {}
