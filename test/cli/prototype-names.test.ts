// Names every plain object answers to (constructor, toString, __proto__...): typed where mkt looks a
// word up by name (a help topic, a completion, a config key), each is an unknown word like any other,
// never one of Object's own members. The list is Object.prototype's own, not one kept here.
import { describe, expect, it } from 'vitest';
import { perWindow } from '../../src/shared/duration.js';
import { runCli } from '../helpers/cli.js';
import { helpPage } from '../helpers/help.js';

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const root = await helpPage();
const topics = [...root.text.matchAll(/`mkt help ([a-z-]+)`/g)].map((match) => match[1]!);
const commands = root.commands.filter((command) => command !== 'help');
const shells = (await helpPage(['completion'])).arguments[0]!;
const keys = (await helpPage(['config', 'get'])).arguments[0]!;

describe.each(PROTOTYPE_NAMES)('%s', (name) => {
  it('mkt help <name>: exit 2, listing the topics and commands there are', async () => {
    const result = await runCli(['help', name]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(`error: no help topic or command "${name}"\nhint: topics: ${topics.join(', ')}; commands: ${commands.join(', ')}\n`);
    expect((await runCli(['help', 'config', name])).code).toBe(2);
  });

  it('mkt __complete: no candidates, and no error', async () => {
    for (const words of [[name], ['help', name], ['help', name, ''], ['config', 'get', name], [`--${name}=`], ['quotes', `--${name}`], ['quotes', '--fields', `${name},`], ['--profile', name]]) {
      const result = await runCli(['__complete', '--', ...words]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^:\d+\n$/);
    }
  });

  it('mkt completion <name>: exit 2, listing the shells', async () => {
    expect(await runCli(['completion', name])).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining(`the shells are ${shells.join(', ')}`) });
  });

  it('mkt config get|set|unset <name>: exit 2, listing the keys', async () => {
    for (const args of [['get', name], ['set', name, 'x'], ['unset', name]]) {
      const result = await runCli(['config', ...args]);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toContain(keys.join(', '));
    }
  });
});

describe('perWindow', () => {
  it.each([[1000, 'a second'], [60_000, 'a minute'], [3_600_000, 'an hour'], [86_400_000, 'a day'], [45_000, 'per 45s']])('%d ms: %s', (ms, words) => {
    expect(perWindow(ms)).toBe(words);
  });
});
