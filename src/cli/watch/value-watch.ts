// A valuation as a watched resource (watched-resource.ts): `mkt value --watch`. The positions file is
// read once (prepare-value.ts); each poll values it again from live quotes (client.valuePortfolio),
// and the watch loop (run-watch.ts) does the rest as for quotes: the interval, rate limits, backoff,
// --count, --until, --exec, q, Ctrl-C and Ctrl-Z. Its outputs are the document outputs
// (document-outputs.ts): on a terminal the valuation's table as a live board, with a Change column
// (each figure in the base since it was first known, exact: render/value-changes.ts) and a line for
// the total's change; on a dumb terminal the same tables one after another; in a pipe the --json
// document per poll on one line, or with --format csv, tsv or ndjson the lines of each poll (the
// positions, then the totals).
//
// Fetching: the first poll takes the one-shot's rounds (the instruments and direct pairs; the legs
// of a cross through USD in a second round only when a currency needs one). Its second round's
// symbols are then known, so every later poll asks for them in its first round (valuePortfolio's
// `prefetch`): one round, every symbol once, in as few requests as the batch size allows. A later
// poll that finds a currency without a rate (a direct pair gone) still takes a second round, and
// its legs join the first round from then on.
import type { Valuation, ValuePortfolioResult } from '../../api/index.js';
import { createValuationTracker, signedChange, type ValuationChange } from '../../render/value-changes.js';
import { defaultValueFields, type ValueFieldName, type ValueRow } from '../../render/value-fields.js';
import type { ValueModel } from '../../render/value-model.js';
import { DEFAULT_CONCURRENCY } from '../../shared/limits.js';
import { formatClock } from '../../shared/time.js';
import type { Deps } from '../deps.js';
import type { RunState } from '../run-state.js';
import { valueOnce, type PreparedValue } from '../value/prepare-value.js';
import type { ValueOptions } from '../value/value-options.js';
import { createDocumentBoard, createDocumentStream, createDocumentTables, DOCUMENT_PIPE, type DocumentWatch } from './document-outputs.js';
import { runWatch } from './run-watch.js';
import type { WatchTerminal } from './terminal.js';
import type { WatchedResource } from './watched-resource.js';

/** What one poll of a valuation gives its outputs. */
interface ValuePoll {
  result: ValuePortfolioResult;
  /** Since each figure was first known. */
  change: ValuationChange;
}

/** `mkt value --watch`, `model` declaring the file's checks (valueModel). `terminal`: the process's, or a test's. */
export function watchValue(
  deps: Deps, prepared: PreparedValue, model: ValueModel, options: ValueOptions, state: RunState, terminal?: WatchTerminal,
): Promise<number> {
  return runWatch(deps, valueWatched(deps, prepared, model), options, state, terminal);
}

function valueWatched(deps: Deps, prepared: PreparedValue, model: ValueModel): WatchedResource<ValuePoll, ValueRow, Valuation, ValueFieldName> {
  const tracker = createValuationTracker();
  // Each poll's change, found by its valuation when the board or the tables draw it.
  const changes = new WeakMap<Valuation, ValuationChange>();
  const board = withChanges(model, changes);
  /** Round 2's symbols so far, asked for in round 1 of every later poll. */
  const prefetch: string[] = [];
  let batchSize = prepared.request.batchSize;
  const shown = (ascii: boolean): DocumentWatch<ValuePoll, ValueRow, ValueFieldName, Valuation> => ({
    model: board,
    document: ({ result }) => result.valuation,
    notes: ({ result, change }) => [totalChangeLine(result.valuation, change, ascii)],
    news,
  });
  return {
    model,
    // Worked out once, when an --until first needs them.
    get keys() {
      return prepared.keys();
    },
    pipe: DOCUMENT_PIPE,
    connections: prepared.request.concurrency ?? DEFAULT_CONCURRENCY,
    async poll(client) {
      const result = await valueOnce(client, prepared, { prefetch, batchSize });
      for (const symbol of result.cross) if (!prefetch.includes(symbol)) prefetch.push(symbol);
      // A batch size the service stated (in a 400 the library answered by shrinking it) is kept for
      // the next polls, which would otherwise each begin with that refusal.
      if (result.rounds === 1 && result.requests > 0) batchSize ??= Math.ceil((prepared.symbolCount() + prefetch.length) / Math.max(1, result.requests));
      const change = tracker.update(result.valuation, deps.now());
      changes.set(result.valuation, change);
      return { result, change };
    },
    pacing: ({ result }) => ({ requests: result.requests, rateLimit: result.rateLimit }),
    subject: ({ result }) => ({ rows: result.valuation.positions, document: result.valuation, keys: prepared.keys() }),
    createBoard: (context) => createDocumentBoard(context, shown(context.screen.ascii)),
    createPlain: (context) => createDocumentTables(context, shown(true)),
    createStream: (context) => {
      // JSON's positions without `row`, as `mkt value --json` writes them, unless --fields says otherwise.
      const fields = context.settings.fields ?? defaultValueFields(context.settings.format);
      const written: DocumentWatch<ValuePoll, ValueRow, ValueFieldName, Valuation> = { model, document: ({ result }) => result.valuation, news };
      return createDocumentStream({ ...context, settings: { ...context.settings, fields: fields && [...fields] } }, written);
    },
  };
}

/** The declaration the board and the tables draw: the valuation's table with its Change columns, fitted to the window. */
function withChanges(model: ValueModel, changes: WeakMap<Valuation, ValuationChange>): ValueModel {
  return {
    ...model,
    async drawTable(valuation, table) {
      const { renderValueTable } = await import('../../render/value-table.js');
      const change = changes.get(valuation);
      return renderValueTable(valuation, table, change === undefined ? undefined : { change });
    },
  };
}

/** What the warnings and the status line say of a poll: positions with no quote, and the pairs a currency found no rate in. */
function news({ result }: ValuePoll) {
  const { valuation } = result;
  const missing = valuation.no_route.length === 0 ? valuation.missing : [...valuation.missing, ...valuation.no_route.flatMap((route) => route.missing)];
  return { missing, ignored: result.unasked, rateLimit: result.rateLimit };
}

/** `total_base +1250.5 USD ▲ since 14:30:15`: the headline of the change, below the tables. */
function totalChangeLine(valuation: Valuation, change: ValuationChange, ascii: boolean): string {
  if (change.total === undefined || change.since === undefined) return 'total_base: no change to show until a poll values every position';
  const direction = change.total.startsWith('-') ? (ascii ? 'v' : '▼') : /^[0.]+$/.test(change.total) ? '=' : ascii ? '^' : '▲';
  return `total_base ${signedChange(change.total)} ${valuation.base} ${direction} since ${formatClock(change.since)}`;
}
