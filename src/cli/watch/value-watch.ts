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
import { valuationAt, type ExactPosition, type ExactValuation, type Precision, type Valuation, type ValuePortfolioResult } from '../../api/index.js';
import { changeText, createValuationTracker, signedChange, type ValuationChange } from '../../render/value-changes.js';
import { defaultValueFields, type ValueFieldName, type ValueRow } from '../../render/value-fields.js';
import type { ValueModel } from '../../render/value-model.js';
import { signOf } from '../../shared/figure.js';
import { DEFAULT_CONCURRENCY } from '../../shared/limits.js';
import { formatClock } from '../../shared/time.js';
import type { Deps } from '../deps.js';
import { choosePrecision } from '../options/precision.js';
import type { RunState } from '../run-state.js';
import { valueOnce, type PreparedValue } from '../value/prepare-value.js';
import { tableValuation, valuationProblems } from '../value/value-output.js';
import type { ValueResourceOptions as ValueOptions } from '../value/value-options.js';
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
  return runWatch(deps, valueWatched(deps, prepared, model, options), options, state, terminal);
}

function valueWatched(deps: Deps, prepared: PreparedValue, model: ValueModel, options: ValueOptions): WatchedResource<ValuePoll, ExactPosition, ExactValuation, ValueFieldName> {
  const tracker = createValuationTracker();
  // Each poll's change, found by its valuation when the board or the tables draw it.
  const changes = new WeakMap<Valuation, ValuationChange>();
  const board = withChanges(model, changes);
  /** Round 2's symbols so far, asked for in round 1 of every later poll. */
  const prefetch: string[] = [];
  let batchSize = prepared.request.batchSize;
  // Each poll's valuation is exact; each output writes it at its own precision, once a poll.
  const written = (precision: Precision, table: boolean) => {
    const documents = new WeakMap<ValuePoll, Valuation>();
    return (poll: ValuePoll): Valuation => {
      let document = documents.get(poll);
      if (document === undefined) {
        document = table ? tableValuation(poll.result.exact, precision) : valuationAt(poll.result.exact, precision);
        documents.set(poll, document);
        changes.set(document, poll.change);
      }
      return document;
    };
  };
  const shown = (ascii: boolean): DocumentWatch<ValuePoll, ValueRow, ValueFieldName, Valuation> => {
    const document = written(choosePrecision(deps, options, 'table'), true);
    return { model: board, document, notes: (poll) => [totalChangeLine(document(poll), poll.change, ascii)], news };
  };
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
      return { result, change: tracker.update(result.exact, deps.now()) };
    },
    pacing: ({ result }) => ({ requests: result.requests, rateLimit: result.rateLimit }),
    subject: ({ result }) => ({ rows: result.exact.positions, document: result.exact, keys: prepared.keys() }),
    createBoard: (context) => createDocumentBoard(context, shown(context.screen.ascii)),
    createPlain: (context) => createDocumentTables(context, shown(true)),
    createStream: (context) => {
      // JSON's positions without `row`, as `mkt value --json` writes them, unless --fields says otherwise.
      const fields = context.settings.fields ?? defaultValueFields(context.settings.format);
      const stream: DocumentWatch<ValuePoll, ValueRow, ValueFieldName, Valuation> = { model, document: written(choosePrecision(deps, options, context.settings.format), false), news };
      return createDocumentStream({ ...context, settings: { ...context.settings, fields: fields && [...fields] } }, stream);
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

/**
 * What the warnings and the status line say of a poll: the symbols with no quote, and what else
 * `mkt value` warns of (quotes that cannot be right, currencies with no rate and the pairs tried,
 * totals that leave positions out), as its one-shot run says them.
 */
function news({ result }: ValuePoll) {
  const { exact } = result;
  return { missing: exact.missing, ignored: result.unasked, rateLimit: result.rateLimit, problems: valuationProblems(exact).filter((problem) => problem.code !== 'no_quote') };
}

/** `total_base +1,250.50 USD ▲ since 14:30:15`: the headline of the change, below the tables, at the table's precision. */
function totalChangeLine(valuation: Valuation, change: ValuationChange, ascii: boolean): string {
  if (change.total === undefined || change.since === undefined) return 'total_base: no change to show until a poll values every position';
  const sign = signOf(change.total);
  const direction = sign < 0 ? (ascii ? 'v' : '▼') : sign === 0 ? '=' : ascii ? '^' : '▲';
  return `total_base ${signedChange(changeText(change.total, valuation))} ${valuation.base} ${direction} since ${formatClock(change.since)}`;
}
