// What `mkt status` reports: the --json schema (README "mkt status --json"; fields are only ever
// added) and its text.
import { formatAge } from '../../shared/time.js';
import { printable } from '../../shared/text.js';

/** `mkt status --json`, schema_version 1 (README "mkt status --json"); fields are only ever added. */
export interface StatusReport {
  schema_version: 1;
  usable: boolean;
  problems: string[];
  profile: Setting;
  base_url: Setting;
  organization: Setting;
  token: {
    present: boolean;
    kind: string;
    source: string;
    obtained_via: string | null;
    /** Whose token it is: the client it was minted for (an API key's client id, for mkt login's); null for MKT_TOKEN's. */
    client_id: string | null;
    type: string | null;
    scope: string | null;
    organization_id: string | null;
    issued_by: string | null;
    expires_at: string | null;
    expires_in_seconds: number | null;
    expired: boolean | null;
    fingerprint: string | null;
  };
  config_file: { path: string; exists: boolean; mode: string | null; dir_mode: string | null; safe: boolean };
  /** Things that may go wrong although the credentials look usable (an organization the token was not issued for). */
  warnings: string[];
  /** MKT_CLIENT_ID and MKT_CLIENT_SECRET: with them, commands get a token when there is none or it has expired. */
  client_credentials: {
    present: boolean;
    client_id: string | null;
    renews_token: boolean;
    /** Why the profile's stored token is not used with these client credentials (another client's, say); null when it is, or there is none. */
    profile_token_set_aside: string | null;
  };
  /** What the service said to one quotes request (--check); null without --check. */
  check: StatusCheck | null;
}

export interface Setting {
  value: string | null;
  kind: string;
  source: string;
}

/** `check` in `mkt status --json`. */
interface StatusCheck {
  ok: boolean;
  symbol: string;
  /** The HTTP status of the answer; null when none came (the network). */
  status: number | null;
  /** Whether the service had a quote for the symbol (null when the check failed). */
  quote_found: boolean | null;
  rate_limit: { limit: number | null; remaining: number | null; reset_seconds: number | null } | null;
  /** What mkt quotes would exit with: 0, or 4, 5, 6, 7... */
  exit_code: number;
  error: { code: string; message: string; hint: string | null; request_id: string | null } | null;
}

/** The status as a person reads it: a label and a value per line, then the warnings and the verdict. */
export function renderStatus(report: StatusReport): string {
  const rows: Array<[string, string]> = [];
  const show = (label: string, item: Setting) => rows.push([label, item.value === null ? '(not set)' : `${item.value}  (${describe(item)})`]);
  show('Profile', report.profile);
  show('Base URL', report.base_url);
  show('Organization', report.organization);
  const token = report.token;
  if (!token.present) rows.push(['Token', '(none)']);
  else {
    const whose = token.client_id === null ? '' : ` for client ${token.client_id}`;
    rows.push(['Token', `${token.obtained_via === 'environment' ? 'from MKT_TOKEN' : `via ${token.obtained_via}${whose}`}  (${describe(token)})`]);
    rows.push(['  Type', token.type ?? '?']);
    rows.push(['  Scope', token.scope || '(none)']);
    if (token.issued_by) rows.push(['  Issued by', token.issued_by]);
    if (token.expires_in_seconds !== null) {
      const age = formatAge(Math.abs(token.expires_in_seconds) * 1000);
      rows.push(['  Expires', `${token.expired ? `expired ${age} ago` : `in ${age}`} (${token.expires_at})`]);
    } else if (token.expires_at !== null) rows.push(['  Expires', `unreadable (${token.expires_at}): counts as expired`]);
    else if (token.obtained_via !== 'environment') rows.push(['  Expires', 'unknown (the service gave no expires_in)']);
    rows.push(['  Fingerprint', token.fingerprint ?? '?']);
  }
  const file = report.config_file;
  rows.push(['Config file', `${file.path}${file.exists ? `  (mode ${file.mode}, directory ${file.dir_mode}, ${file.safe ? 'private' : 'READABLE BY OTHERS'})` : '  (not created yet)'}`]);
  const client = report.client_credentials;
  if (client.present) rows.push(['Client credentials', `${client.client_id}  (from MKT_CLIENT_ID and MKT_CLIENT_SECRET)`]);
  if (client.profile_token_set_aside !== null) rows.push(["  Profile's token", `not used: ${client.profile_token_set_aside}`]);
  if (report.check) rows.push(...checkRows(report.check));
  // Scope, organization and addresses can come from the service: nothing in them may drive the terminal.
  for (const row of rows) row[1] = printable(row[1]);
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  let text = rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}\n`).join('');
  text += report.warnings.map((warning) => `Warning: ${printable(warning)}\n`).join('');
  text += report.usable ? `Credentials are usable${report.check ? ': the service took them' : ''}.\n` : report.problems.map((problem) => `Problem: ${printable(problem)}\n`).join('');
  return text;
}

function describe(item: { kind: string; source: string }): string {
  switch (item.kind) {
    case 'flag': return `from the ${item.source} flag`;
    case 'env': return `from ${item.source}`;
    case 'default': return 'default';
    default: return `from ${item.source}`;
  }
}

/** The check's lines in `mkt status`. */
function checkRows(check: StatusCheck): Array<[string, string]> {
  if (!check.ok) {
    const rows: Array<[string, string]> = [['Check', `failed (exit ${check.exit_code}): ${check.error?.message ?? ''}`]];
    if (check.error?.request_id) rows.push(['  Request id', check.error.request_id]);
    return rows;
  }
  const rows: Array<[string, string]> = [['Check', `ok: the service answered ${check.status} for ${check.symbol}${check.quote_found ? '' : ', without a quote for it'}`]];
  const limit = check.rate_limit;
  if (limit?.remaining != null) {
    const of = limit.limit === null ? '' : ` of ${limit.limit}`;
    const reset = limit.reset_seconds === null ? '' : `; the window resets in ${formatAge(limit.reset_seconds * 1000)}`;
    rows.push(['  Rate limit', `${limit.remaining}${of} requests left${reset}`]);
  }
  return rows;
}
