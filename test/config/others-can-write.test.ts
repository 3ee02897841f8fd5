// Who besides a file's user can change it: the rule behind the config directory's trust and the
// compile cache's, with account files of the test's own.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPrivateGroup, othersCanWrite, type AccountFiles } from '../../src/config/others-can-write.js';
import { tempDir } from '../helpers/cli.js';

const ME = 1000;

function accountFiles(passwd: string, group: string): AccountFiles {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'passwd'), passwd);
  fs.writeFileSync(path.join(dir, 'group'), group);
  return { passwd: path.join(dir, 'passwd'), group: path.join(dir, 'group') };
}

const PASSWD = 'root:x:0:0::/root:/bin/sh\nme:x:1000:1000::/home/me:/bin/sh\nbob:x:1001:1001::/home/bob:/bin/sh\ncarol:x:1002:500::/home/carol:/bin/sh\n';
const GROUP = '# groups\nroot:x:0:\nme:x:1000:\nbob:x:1001:\nstaff:x:500:\nteam:x:600:me,bob\nmine:x:700:me\n';
const files = accountFiles(PASSWD, GROUP);

const entry = (mode: number, gid: number, directory: boolean) => ({ mode, uid: ME, gid, isDirectory: () => directory });

describe('othersCanWrite', () => {
  it.each([
    ['a private directory', 0o40700, 1000, true, undefined],
    ['a directory all can read', 0o40755, 1000, true, undefined],
    ['a directory all can write', 0o40777, 1000, true, 'others'],
    ['a directory only others (not the group) can write', 0o40707, 1000, true, 'others'],
    ['a sticky directory all can write (as /tmp)', 0o41777, 0, true, undefined],
    ['a file with the sticky bit that all can write', 0o101666, 1000, false, 'others'],
    ['a file all can write', 0o100666, 1000, false, 'others'],
    ["a directory its user's private group can write", 0o40775, 1000, true, undefined],
    ['a directory a group with a member besides the user can write', 0o40770, 600, true, 'group'],
    ['a directory a group whose only member is the user can write', 0o40770, 700, true, undefined],
    ["a directory the primary group of another account can write", 0o40770, 500, true, 'group'],
    ['a directory a group the files do not list can write', 0o40770, 4242, true, 'group'],
    ['a file a group with a member besides the user can write', 0o100660, 600, false, 'group'],
  ])('%s: %s', (_name, mode, gid, directory, expected) => {
    expect(othersCanWrite(entry(mode, gid, directory), ME, files)).toBe(expected);
  });

  it('counts no group as private when the account files cannot be read', () => {
    const missing = { passwd: path.join(tempDir(), 'none'), group: path.join(tempDir(), 'none') };
    expect(isPrivateGroup(1000, ME, missing)).toBe(false);
    expect(othersCanWrite(entry(0o40770, 1000, true), ME, missing)).toBe('group');
  });

  it("knows root's group as private to root only when no other account has it", () => {
    expect(isPrivateGroup(0, 0, files)).toBe(true);
    expect(isPrivateGroup(0, 0, accountFiles(`${PASSWD}operator:x:11:0::/root:/sbin/nologin\n`, GROUP))).toBe(false);
  });
});
