// The flags of `mkt value`, one-shot and --watch: the command defines them (commands/value.ts);
// reading the positions (prepare-value.ts) and the watch of a valuation (watch/value-watch.ts) read
// them; here, so that none imports another for a type.
import type { CheckFlags } from '../options/checks.js';
import type { PriceFormat } from '../../render/price-directives.js';
import type { Format } from '../options/format.js';
import type { NetworkFlags } from '../options/network.js';
import type { PrecisionFlags } from '../options/precision.js';
import type { TargetFlags } from '../options/settings.js';

export interface ValueOptions extends TargetFlags, NetworkFlags, CheckFlags, PrecisionFlags {
  /** The currency of value_base and the totals. */
  base?: string;
  /** The currency of positions that give none. */
  currency?: string;
  price?: string;
  /** csv, tsv or json: the positions file's kind, whatever its name or first character say. */
  inputFormat?: string;
  /** FIELD=HEADER,...: which of the file's columns holds each field (parse-columns-flag.ts). */
  columns?: string;
  /** --decimal-comma (true), --no-decimal-comma (false), or neither. */
  decimalComma?: boolean;
  /** The file's encoding when it has no byte-order mark: cp1252, utf-16le... */
  encoding?: string;
  strict?: boolean;
  /** A format of every resource's, or mkt value's own: ledger, beancount. */
  format?: Format | PriceFormat;
  json?: boolean;
  fields?: string;
  batchSize?: string;
  concurrency?: string;
  // --- watch mode (src/cli/watch/) ---
  interval?: string;
  count?: string;
}

/** The options once --format ledger and beancount are set apart: what every resource's flags read. */
export type ValueResourceOptions = Omit<ValueOptions, 'format'> & { format?: Format };
