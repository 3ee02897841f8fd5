// What login and token read from the user: a secret (an API key, a client secret) from standard
// input, the environment or a masked prompt, never a flag; and the organization. Every secret read
// is held, so that nothing mkt prints from then on shows it.
import type { Deps } from '../deps.js';
import { UsageError } from '../errors/errors.js';
import { MAX_SECRET_BYTES } from '../../shared/limits.js';
import { ORGANIZATION_PATTERN } from '../../shared/patterns.js';
import { readLimited } from '../../shared/read-limited.js';
import { holdSecret } from './secrets.js';
import { ORG_HINT, type Settings } from '../options/settings.js';

export interface SecretSource {
  /** The flag that reads standard input, e.g. --with-api-key. */
  stdinFlag: string;
  stdinFlagGiven: boolean;
  envName: string;
  /** What the secret is, for prompts and messages: "API key". */
  label: string;
  example: string;
  /** What is wrong with a value, or undefined: a prompt asks again instead of failing. */
  check?: (value: string) => string | undefined;
}

/**
 * Standard input (with the flag), the environment, or a masked prompt on a terminal, in that order.
 * The value is held as a secret: nothing mkt prints from now on shows it.
 */
export async function readSecret(deps: Deps, source: SecretSource): Promise<{ value: string; from: string }> {
  const found = await findSecret(deps, source);
  holdSecret(deps, found.value);
  return found;
}

async function findSecret(deps: Deps, source: SecretSource): Promise<{ value: string; from: string }> {
  if (source.stdinFlagGiven) {
    if (deps.io.stdinIsTTY) {
      throw new UsageError(`${source.stdinFlag} reads the ${source.label} from standard input, which is a terminal`, `pipe it in: ${source.example}`);
    }
    const value = (await readLimited(deps.io.stdin, `the ${source.label} on standard input`, MAX_SECRET_BYTES, deps.signal)).trim();
    if (value === '') throw new UsageError(`${source.stdinFlag} was given but standard input was empty`, `pipe the ${source.label} in: ${source.example}`);
    return { value, from: 'standard input' };
  }
  const fromEnv = deps.env[source.envName];
  if (fromEnv) return { value: fromEnv.trim(), from: source.envName };
  if (deps.io.stdinIsTTY && deps.io.stdoutIsTTY) {
    const value = (await deps.io.prompt(`${source.label}:`, { mask: true, validate: (answer) => answer === '' ? `enter the ${source.label}` : source.check?.(answer) })).trim();
    if (value === '') throw new UsageError(`no ${source.label} was entered`);
    return { value, from: 'the prompt' };
  }
  throw new UsageError(`no ${source.label} given`, secretHint(source));
}

/** Secrets never come from flags: they leak into shell history and `ps`. */
export function rejectSecretFlag(value: string | undefined, flag: string, hint: string): void {
  if (value !== undefined) throw new UsageError(`${flag} is not accepted: secrets on the command line leak into shell history and ps`, hint);
}

export function secretHint(source: SecretSource): string {
  return `give the ${source.label} on standard input with ${source.stdinFlag} (${source.example}), in the ${source.envName} environment variable, or at the prompt on a terminal; never as a flag value, which leaks into shell history and ps`;
}

/** The organization: --org, MKT_ORG, the profile, or a prompt on a terminal (asked again after a typo). */
export async function readOrganization(deps: Deps, settings: Settings): Promise<{ value: string; prompted: boolean }> {
  if (settings.org.value) return { value: settings.org.value, prompted: false };
  if (deps.io.stdinIsTTY && deps.io.stdoutIsTTY) {
    const validate = (answer: string) => ORGANIZATION_PATTERN.test(answer) ? undefined : 'an organization is org_<id>, e.g. org_demo';
    const value = (await deps.io.prompt('Organization (org_<id>):', { mask: false, validate })).trim();
    if (value !== '') return { value, prompted: true };
  }
  throw new UsageError('no organization given', ORG_HINT);
}

