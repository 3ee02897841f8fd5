// The shapes of mkt's wording of errors (errors/explain.ts, and each command's explainer), and the names
// mkt gives the library's options: where a library error's facts name an option, mkt says the flag
// or variable the user set it with, never the library's identifier.

/** A command's own words for an error; either may be left to the generic wording. */
export interface Words {
  message?: string;
  hint?: string;
}

/**
 * A command's wording of its errors, given the names of the run's settings: undefined for an error
 * it has nothing to add to.
 */
export type Explainer = (error: Error, names: SettingNames) => Words | undefined;

/** How this run's settings were given, for hints that tell the user which to change. */
export interface SettingNames {
  /** Where the base URL came from: `--base-url`, `MKT_BASE_URL`, `base-url in profile default of /home/me/.config/mkt/config.json`. */
  baseUrl: string;
  /** `--timeout`, or MKT_TIMEOUT when that set it. */
  timeout: string;
  /** The CA file trusted besides the system's, and where it was given (`--ca-file`, `MKT_CA_FILE`). */
  caFile?: { path: string; source: string };
  /** The proxy requests to the service go through: the variable that set it (`HTTPS_PROXY`, `http_proxy`). */
  proxy?: { variable: string };
}

/** What a run that made no client of its own goes by: the flags. */
export const FLAG_NAMES: SettingNames = { baseUrl: '--base-url', timeout: '--timeout' };

/**
 * The library's options and call inputs, by what mkt calls them. A library error that names one
 * (OptionsError.option) is worded with these; `the base URL` and the timeout take the run's own
 * names (SettingNames), the rest are fixed.
 */
export function optionName(option: string, names: SettingNames): string | undefined {
  switch (option) {
    case 'baseUrl': return `the base URL (${names.baseUrl})`;
    case 'timeoutMs': return names.timeout;
    case 'maxWaitMs': return '--max-wait';
    case 'retries': return '--retries';
    case 'batchSize': return '--batch-size';
    case 'concurrency': return '--concurrency';
    case 'venue': return '--venue';
    case 'organizationId': return '--org';
    case 'allowInsecureHttp': return 'MKT_ALLOW_INSECURE_HTTP';
    default: return undefined;
  }
}
