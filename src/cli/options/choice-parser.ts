// One of a few words, for an option or an argument: commander's `.choices()` keeps the list for help
// (`(choices: ...)`) and completion, and this parser, set after it with `.argParser()`, replaces its
// check, which speaks commander's words ("command-argument value 'x' is invalid for argument 'key'").
import { UsageError } from '../errors/errors.js';
import { printable } from '../../shared/text.js';

/**
 * A parser that passes one of `choices` and refuses anything else with a usage error (exit 2) worded
 * by `refuse`: what was given, made printable and quoted, and the valid ones as a list, for a hint.
 */
export function choiceParser<T extends string>(choices: readonly T[], refuse: (given: string, valid: string) => UsageError): (value: string) => T {
  return (value) => {
    if ((choices as readonly string[]).includes(value)) return value as T;
    throw refuse(printable(value, { max: 40, quote: true }), choices.join(', '));
  };
}
