// Every warning mkt gives has a code from this list: the one list, which the README's table of
// warning codes gives too (test/shared/warnings.test.ts holds them together). A script reads the code
// from the JSON line a warning becomes under a JSON format (src/cli/output/diagnostics.ts); a person reads
// the message. A new warning is one line here, one row in the README, and one call:
// `diagnosticsOf(deps).warn({ code, message, hint })`, or `terminal.diagnostics.warn(...)`.
// Here, not in src/cli, because the config file's own warnings (src/config) have codes too.

export const WARNING_CODES = [
  'config_file_readable',
  'config_file_closed',
  'config_dir_readable',
  'config_dir_shared',
  'token_expiry_unreadable',
  'token_without_market_read',
  'token_overridden',
  'no_organization',
  'ignored_columns',
  'skipped_lines',
  'skipped_rows',
  'no_quote',
  'stale_quotes',
  'future_quotes',
  'wrong_quotes',
  'unasked_quotes',
  'unusable_quotes',
  'no_rate',
  'incomplete_totals',
  'watch_interval_raised',
  'watch_throttled',
  'watch_rate_limited',
  'watch_poll_failed',
  'mcp_protocol_error',
  'mcp_credential_withheld',
  'sandbox_exposed',
] as const;

export type WarningCode = (typeof WARNING_CODES)[number];

/** What a warning says: its code, what is wrong, and, when there is one, what to do about it. */
export interface Warning {
  code: WarningCode;
  message: string;
  hint?: string;
}
