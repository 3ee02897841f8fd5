// Whether users other than this one can change a file or directory: the question behind the
// config directory's trust and the compile cache's. Also loaded by the launcher (src/cli/launch.ts)
// before anything else, so it takes Node's built-ins through process.getBuiltinModule and reads the
// account files only when a group's write bit asks it to.

/** The parts of a file's status the answer depends on. */
export interface Ownership {
  mode: number;
  uid: number;
  gid: number;
  isDirectory(): boolean;
}

/** Where the accounts are: the system's files, or a test's. */
export interface AccountFiles {
  passwd: string;
  group: string;
}

const SYSTEM: AccountFiles = { passwd: '/etc/passwd', group: '/etc/group' };

/**
 * Who besides user `uid` (and root) can write to the entry: 'others' (all users), 'group' (the
 * members of its group), or undefined (nobody). A directory with the sticky bit (as /tmp) lets
 * nobody rename or remove another's entries, so its write bits let nobody change this user's.
 * A group counts only when someone else is in it: see isPrivateGroup.
 */
export function othersCanWrite(stat: Ownership, uid: number, accounts: AccountFiles = SYSTEM): 'others' | 'group' | undefined {
  if (stat.isDirectory() && (stat.mode & 0o1000) !== 0) return undefined;
  if ((stat.mode & 0o002) !== 0) return 'others';
  if ((stat.mode & 0o020) !== 0 && !isPrivateGroup(stat.gid, uid, accounts)) return 'group';
  return undefined;
}

/**
 * Whether group `gid` can hold no user but `uid`: the account files list no other member, and no
 * other account has it as its primary group. This is the private group that systems with one group
 * per user (Debian, Fedora) give every account, where a umask of 002 makes directories group-writable
 * and nobody else can use that. A group the files do not list (one from LDAP, say) may have members
 * they cannot show, so it is not private; nor is any group when the files cannot be read.
 */
export function isPrivateGroup(gid: number, uid: number, accounts: AccountFiles = SYSTEM): boolean {
  const passwd = accountLines(accounts.passwd);
  const group = accountLines(accounts.group)?.find((fields) => Number(fields[2]) === gid && fields[2] !== '');
  if (passwd === undefined || group === undefined) return false;
  const name = passwd.find((fields) => Number(fields[2]) === uid && fields[2] !== '')?.[0];
  const members = (group[3] ?? '').split(',').filter((member) => member !== '');
  if (members.some((member) => member !== name)) return false;
  return !passwd.some((fields) => Number(fields[3]) === gid && fields[3] !== '' && Number(fields[2]) !== uid);
}

/** The account name of `uid`, for messages; undefined when the account files do not say. */
export function accountName(uid: number, accounts: AccountFiles = SYSTEM): string | undefined {
  return accountLines(accounts.passwd)?.find((fields) => Number(fields[2]) === uid && fields[2] !== '')?.[0];
}

function accountLines(file: string): string[][] | undefined {
  try {
    const text = process.getBuiltinModule('node:fs').readFileSync(file, 'utf8');
    return text.split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => line.split(':'));
  } catch {
    return undefined;
  }
}
