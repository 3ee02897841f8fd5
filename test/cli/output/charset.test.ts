// Plain ASCII or UTF-8 drawing, decided once from the environment (src/cli/output/charset.ts).
import { describe, expect, it } from 'vitest';
import { useAscii } from '../../../src/cli/output/charset.js';

describe('useAscii', () => {
  it.each([
    [{}, false], // no locale at all: nobody chose C, and terminals draw UTF-8
    [{ LANG: 'en_US.UTF-8' }, false],
    [{ LANG: 'C.utf8' }, false],
    [{ LC_ALL: 'C' }, true],
    [{ LC_ALL: 'POSIX', LANG: 'en_US.UTF-8' }, true], // LC_ALL first
    [{ LC_ALL: 'en_US.UTF-8', LANG: 'C' }, false],
    [{ LC_CTYPE: 'en_US.ISO-8859-1', LANG: 'en_US.UTF-8' }, true], // then LC_CTYPE
    [{ LC_ALL: '', LC_CTYPE: 'C.UTF-8', LANG: 'C' }, false], // an empty variable is unset
    [{ LANG: 'de_DE@euro' }, true],
    [{ TERM: 'dumb', LANG: 'en_US.UTF-8' }, true],
    [{ TERM: 'xterm-256color', LANG: 'C' }, true],
  ])('%j: %s', (env, ascii) => {
    expect(useAscii(env)).toBe(ascii);
  });
});
