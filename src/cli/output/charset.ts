// Box-drawing characters, arrows, sparkline blocks and ellipses, or plain ASCII: the rule, which the
// run's terminal (terminal.ts) applies once and hands down to the table and the board as colour is.
import type { Env } from '../io.js';

/**
 * Plain ASCII for TERM=dumb and for a locale that names a character set other than UTF-8. The
 * locale is the first of LC_ALL, LC_CTYPE and LANG that is set (the order of POSIX precedence), so
 * LC_ALL=C wins over LANG=en_US.UTF-8. With none set, UTF-8: that C locale was nobody's choice, and
 * every terminal in use draws UTF-8 (systemd reasons the same way).
 */
export function useAscii(env: Env): boolean {
  if (env.TERM === 'dumb') return true;
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG;
  return locale !== undefined && !/utf-?8/i.test(locale);
}
