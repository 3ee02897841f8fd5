// Every option and argument whose help lists its choices (commander's "(choices: ...)") refuses any
// other value in mkt's words, never commander's ("command-argument value 'x' is invalid for argument
// 'key'. Allowed choices are ..."): exit 2, the value given made printable, the choices in the hint.
// The cases are read from the help users see, so a choice added later is covered too.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { everyHelpPage } from '../../helpers/help.js';

/** A value no list holds, with an OSC title sequence in it: shown as `"no]0;PWNED"`. */
const GIVEN = 'no\u001b]0;PWNED\u0007';
const SHOWN = '"no]0;PWNED"';

const pages = await everyHelpPage();
const optionCases = pages.flatMap(([words, page]) => page.options
  .filter((option) => option.choices.length > 0 && option.flags.includes('--fields') === false)
  .map((option) => [`mkt ${[...words, option.flags.at(-1)!].join(' ')}`, [...words, option.flags.at(-1)!, GIVEN], option.choices] as const));
const argumentCases = pages.flatMap(([words, page]) => page.arguments.flatMap((choices, index) => choices.length === 0 ? [] : [
  [`mkt ${words.join(' ')} <argument ${index + 1}>`, [...words, ...page.arguments.map((_, at) => (at === index ? GIVEN : 'x'))], choices] as const,
]));

describe('a value that is not one of the choices', () => {
  it('is looked for where help lists choices: --format, --price, --input-format, config keys, shells', () => {
    const names = [...optionCases, ...argumentCases].map(([name]) => name);
    for (const name of ['mkt quotes --format', 'mkt value --price', 'mkt value --input-format', 'mkt config get <argument 1>', 'mkt config set <argument 1>', 'mkt config unset <argument 1>', 'mkt completion <argument 1>']) {
      expect(names).toContain(name);
    }
  });

  it.each([...optionCases, ...argumentCases])('%s: exit 2, in mkt\'s words, the value made printable, the choices in the hint', async (_name, args, choices) => {
    const result = await runCli([...args]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const [message, hint, ...rest] = result.stderr.split('\n');
    expect(message).toMatch(/^error: /);
    expect(message).toContain(SHOWN);
    expect(hint).toMatch(new RegExp(`^hint: the \\w+ are ${choices.join(', ')}(:|$)`));
    expect(rest).toEqual(['']);
    expect(result.stderr).not.toMatch(/is invalid|Allowed choices/);
  });
});
