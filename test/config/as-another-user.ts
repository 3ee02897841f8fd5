// Running mkt as a user other than the test's, and making files another user's. The tests run as
// root on CI and on the development machine, and root passes every permission check: mkt then runs
// as nobody (65534) for what only an ordinary user sees. That needs a checkout nobody may read (not
// a clone inside a directory of root's alone), and a node it can start: spawn's own uid option
// cannot start one nobody cannot reach, such as the node of `npx -p node@22` under /root/.npm
// (/root is 0700: EACCES), which setpriv (util-linux) starts all the same, mkt then running as
// nobody with no capability (its /proc/self/status: CapEff 0). Groups
// are tried with account files of the test's own, bind-mounted over /etc/group and /etc/passwd in a
// mount namespace of mkt's own (unshare -m, which needs root).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { baseEnv, collect, type BinResult, mkt } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';

export const asRoot = process.getuid?.() === 0;
export const NOBODY = 65534;

const hasSetpriv = asRoot && spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0;

/** mkt `args` as nobody when the tests run as root (through setpriv where there is one), else as the test's own user. */
function unprivileged(args: readonly string[]): { file: string; args: string[]; ids: { uid?: number; gid?: number } } {
  const [file, rest] = mkt(args);
  if (!asRoot) return { file, args: rest, ids: {} };
  if (hasSetpriv) return { file: 'setpriv', args: ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', file, ...rest], ids: {} };
  return { file, args: rest, ids: { uid: NOBODY, gid: NOBODY } };
}

/** Whether nobody can run mkt here (always, when the tests do not run as root). */
export const canRunUnprivileged = (() => {
  const probe = unprivileged(['--version']);
  return !asRoot || spawnSync(probe.file, probe.args, { ...probe.ids, stdio: 'ignore' }).status === 0;
})();

/** Why runUnprivileged cannot run here, for a skipped test to say; undefined when it can. */
export const cannotRunUnprivileged = canRunUnprivileged ? undefined
  : `nobody (${NOBODY}) cannot start ${mkt([])[0]}${hasSetpriv ? ' even through setpriv' : ', and there is no setpriv to start it'}: put node and the checkout where nobody can reach them`;

/** mkt as a user without root's powers (nobody when the tests run as root). */
export function runUnprivileged(args: string[], env: Record<string, string>, options: { cwd?: string } = {}): Promise<BinResult> {
  const command = unprivileged(args);
  const child = spawn(command.file, command.args, { env: baseEnv(env), cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'], ...command.ids });
  return collect(child, performance.now(), undefined, 20_000);
}

/** A new directory that runUnprivileged's mkt can reach (as root, the test's own are root's alone). */
export function reachableDir(): string {
  const dir = tempDir();
  if (asRoot) {
    for (let at = dir; path.dirname(at) !== at; at = path.dirname(at)) {
      const mode = fs.statSync(at).mode & 0o777;
      if ((mode & 0o001) === 0) fs.chmodSync(at, mode | 0o011);
    }
  }
  return dir;
}

/** Whether runWithAccounts can run here. */
export const canBindAccounts = asRoot && process.platform === 'linux' && spawnSync('unshare', ['-m', 'true'], { stdio: 'ignore' }).status === 0;

/** A group with a member besides root (alice), and a group with no member, that is no account's primary group. */
export const TEAM = 4242;
export const SOLO = 4243;

/** mkt `args` (as root) seeing account files where TEAM has another member and SOLO none. */
export function runWithAccounts(args: string[], env: Record<string, string>): Promise<BinResult> {
  const dir = tempDir();
  const passwd = path.join(dir, 'passwd');
  const group = path.join(dir, 'group');
  fs.writeFileSync(passwd, 'root:x:0:0:root:/root:/bin/sh\nalice:x:1000:1000::/home/alice:/bin/sh\n');
  fs.writeFileSync(group, `root:x:0:\nalice:x:1000:\nteam:x:${TEAM}:alice\nsolo:x:${SOLO}:\n`);
  const script = 'mount --bind "$GROUP_FILE" /etc/group && mount --bind "$PASSWD_FILE" /etc/passwd || exit 99; exec "$@"';
  const child = spawn('unshare', ['-m', 'sh', '-c', script, 'sh', ...mkt(args).flat()], {
    env: baseEnv({ ...env, GROUP_FILE: group, PASSWD_FILE: passwd }), stdio: ['pipe', 'pipe', 'pipe'],
  });
  return collect(child, performance.now(), '', 20_000).finally(() => fs.rmSync(dir, { recursive: true, force: true }));
}
