// The flags of `mkt quotes`, one-shot and --watch: the command defines them (commands/quotes.ts),
// and the watch (../watch/) reads them; here, so that neither imports the other for a type.
import type { CheckFlags } from './checks.js';
import type { Format } from './format.js';
import type { NetworkFlags } from './network.js';
import type { TargetFlags } from './settings.js';

export interface QuotesOptions extends TargetFlags, NetworkFlags, CheckFlags {
  symbols?: string;
  symbolsFile?: string;
  venue?: string;
  format?: Format;
  json?: boolean;
  fields?: string;
  strict?: boolean;
  maxAge?: string;
  batchSize?: string;
  concurrency?: string;
  // --- watch mode (src/cli/watch/) ---
  interval?: string;
  count?: string;
  changesOnly?: boolean;
}
