// The --exec program is held to the rule the config file is (config/trust.ts, as ssh holds ~/.ssh):
// whoever can change the file mkt runs, or a directory above it, decides what runs with this user's
// rights when the condition holds. So a program of another user (root aside), or one that others can
// write to, or one in a directory that others can write to without the sticky bit (as /tmp has), is
// refused before any request (exit 2); so is a link to one, or a link another user made. The file
// checked is the one mkt runs: a script given to an interpreter (`--exec sh -- notify.sh`) is the
// interpreter's to read. Windows keeps this in ACLs, not modes: there nothing is checked.
import fs from 'node:fs';
import path from 'node:path';
import { assertTrustedChain, assertTrustedEntry, type TrustRule } from '../../config/trust.js';
import { UsageError } from '../errors/errors.js';

/** Refuses `file`, found for --exec (`named`: `--exec "notify"`, as findProgram names it), if someone else could change what it runs. */
export function assertTrustedProgram(file: string, named: string): void {
  const rule: TrustRule = {
    risk: 'who could make mkt run what they like',
    ownerHint: (at) => `use a program of your own or root's, or, if ${at} should be yours: sudo chown "$USER" ${at}`,
    fileFix: (at, bit) => `chmod ${bit} ${at}`,
    modeHint: (fix) => fix,
    refuse: (message, hint) => new UsageError(`${named}: ${message}`, hint),
  };
  assertTrustedEntry(file, fs.statSync(file), rule, {
    file,
    link: `${file} (a symbolic link)`,
    aboveTarget: (at) => `${at}, above the file it links to,`,
  });
  const dir = path.dirname(file);
  assertTrustedChain(dir, rule, (at) => `${at}, ${at === dir ? 'which holds it' : 'above it'},`);
}
