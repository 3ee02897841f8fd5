// The client bound to one set of options: each method is its operation's function (auth.ts,
// quotes.ts), handed the options and, for mkt only, the seam (internal.ts). The options are checked
// here, once, and then handed on whole: nothing is copied by name.
import { cliLogin, clientCredentials, type CliLoginInput } from './auth.js';
import { checkClientOptions } from './check-options.js';
import type { ClientOptions } from './options.js';
import { getQuotes, type GetQuotesInput } from './quotes.js';
import type { Seam } from './seam.js';
import type { ClientCredentialsInput } from './types.js';

/** The client's methods (client.ts, Client), bound. */
export function bindClient(options: ClientOptions, seam: Seam) {
  checkClientOptions(options);
  // What only the seam may set is set from it, whatever else the options object holds.
  const bound = { ...options, now: seam.now, sleep: seam.sleep, random: seam.random, waitBudget: undefined, progress: undefined };
  return {
    cliLogin: (input: CliLoginInput) => cliLogin(bound, input),
    clientCredentials: (input: ClientCredentialsInput) => clientCredentials(bound, input),
    getQuotes: (input: GetQuotesInput) => getQuotes(bound, input),
  };
}
