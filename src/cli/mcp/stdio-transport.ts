// mkt mcp's transport: JSON-RPC 2.0 messages, a line each, on standard input and output, in place
// of the SDK's StdioServerTransport, which answers no malformed message (a line that is not JSON, a
// bad id, a bad _meta.progressToken: a zod dump on stderr, and a client that waits until it times
// out), ends the server on a message over 10 MiB (exit 0), and reads no batch. Here each line is
// answered as JSON-RPC 2.0 says (https://www.jsonrpc.org/specification#error_object):
// - a line that is not JSON: -32700, id null;
// - a message that is no request, notification or response (not an object, an id that is neither a
//   string nor an integer, jsonrpc other than "2.0", a method that is not a string, a member JSON-RPC
//   has not): -32600, with its id when it has a good one, else null;
// - a request whose params its method's schema refuses (the SDK's own schemas, for the methods this
//   server serves): -32602; a method it does not serve is the SDK's to refuse (-32601);
// - a request holding a number written with a fraction that a double reads as whole
//   (100.000000000000001, parsed as 100: lost-fraction.ts): -32602, naming it;
// - a message over 10 MiB (MAX_MCP_MESSAGE_BYTES): -32600, with its id when one can be found in it, dropped
//   unread, and the next line read as usual;
// - a batch (an array): run and answered with an array under MCP 2025-03-26, the one version that
//   has batches (2024-11-05 had none; 2025-06-18 removed them); under any other, each request in it
//   is answered -32600 and nothing in it runs.
// A malformed notification or response gets no answer (JSON-RPC answers neither), only a line on stderr.
import type { Readable } from 'node:stream';
import { MAX_MCP_MESSAGE_BYTES } from '../../shared/limits.js';
import { formatBytes } from '../../shared/read-limited.js';
import { arrayElements, fractionLostToDouble, lostFractionWords } from './lost-fraction.js';
import {
  ClientNotificationSchema, ClientRequestSchema, JSONRPCErrorResponseSchema, JSONRPCNotificationSchema, JSONRPCRequestSchema,
  JSONRPCResultResponseSchema, type JSONRPCMessage, type RequestId, type Transport,
} from './sdk.js';


/** The protocol versions whose messages may be batches. */
const BATCH_VERSIONS: ReadonlySet<string> = new Set(['2025-03-26']);

/** The members a JSON-RPC 2.0 message may have. */
const MEMBERS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);

interface JsonRpcError {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string };
}

/** A line read: a message to hand to the server, an error to answer with, or something to say on stderr and drop. */
type Reading = { message: JSONRPCMessage } | { answer: JsonRpcError } | { dropped: string };

interface StdioTransportOptions {
  /** The requests the server answers; the params of each are checked against the SDK's schema for it. */
  methods: ReadonlySet<string>;
  /** A line for stderr: what was refused or dropped, and why. */
  warn(message: string): void;
}

/** A batch under way: its answers in the order of its members, and the requests still to answer. */
interface Batch {
  answers: Array<JSONRPCMessage | JsonRpcError | undefined>;
  waiting: Map<RequestId, number>;
}

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The message over the size limit being skipped, if one is. */
  private skipping: { scanner: IdScanner; bytes: number } | undefined;
  /** The protocol version the server answered initialize with. */
  private version: string | undefined;
  private readonly initializing = new Set<RequestId>();
  private readonly batchOf = new Map<RequestId, Batch>();
  private readonly requestSchemas: ReadonlyMap<string, RequestSchema>;
  private readonly notificationSchemas: ReadonlyMap<string, RequestSchema>;

  constructor(private readonly input: Readable, private readonly output: { write(text: string): unknown }, private readonly options: StdioTransportOptions) {
    this.requestSchemas = schemasByMethod(ClientRequestSchema.options);
    this.notificationSchemas = schemasByMethod(ClientNotificationSchema.options);
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pending = [];
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && ('result' in message || 'error' in message)) {
      const id = message.id as RequestId;
      if (this.initializing.delete(id) && 'result' in message) this.version = String(message.result.protocolVersion);
      const batch = this.batchOf.get(id);
      if (batch !== undefined) return this.answerInBatch(batch, id, message);
    }
    this.write(message);
  }

  private readonly onError = (error: Error) => this.onerror?.(error);

  /** Splits the input into lines, keeping at most MAX_MCP_MESSAGE_BYTES of one: the rest of a longer one is scanned for its id, and dropped. */
  private readonly onData = (chunk: Buffer) => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      if (this.skipping !== undefined) {
        this.skipping.scanner.scan(piece);
        this.skipping.bytes += piece.length;
      } else if (this.pendingBytes + piece.length > MAX_MCP_MESSAGE_BYTES) {
        const scanner = new IdScanner();
        for (const kept of [...this.pending, piece]) scanner.scan(kept);
        this.skipping = { scanner, bytes: this.pendingBytes + piece.length };
        this.pending = [];
        this.pendingBytes = 0;
      } else {
        this.pending.push(piece);
        this.pendingBytes += piece.length;
      }
      if (newline === -1) return;
      start = newline + 1;
      if (this.skipping !== undefined) {
        const { scanner, bytes } = this.skipping;
        this.skipping = undefined;
        this.refuse(invalidRequest(scanner.id, `the message is ${bytes.toLocaleString('en-US')} bytes, over the ${formatBytes(MAX_MCP_MESSAGE_BYTES)} mkt mcp reads in one; it was dropped unread`));
      } else {
        const line = Buffer.concat(this.pending).toString('utf8');
        this.pending = [];
        this.pendingBytes = 0;
        this.receive(line);
      }
    }
  };

  private receive(line: string): void {
    // A blank line (a client's stray line end) holds no message.
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      return this.refuse(errorOf(null, -32700, `Parse error: ${(error as Error).message}`));
    }
    if (Array.isArray(value)) return this.receiveBatch(value, line);
    // A request with a number whose fraction the parse lost is answered before anything reads it.
    const lost = fractionLostToDouble(line);
    if (lost !== undefined && isObject(value) && typeof value.method === 'string' && isRequestId(value.id)) {
      return this.refuse(invalidParams(value.id, lostFractionWords(lost)));
    }
    const reading = this.read(value);
    if ('answer' in reading) return this.refuse(reading.answer);
    if ('dropped' in reading) return this.options.warn(reading.dropped);
    this.deliver(reading.message);
  }

  /** A message checked: what to hand to the server, to answer, or to drop. */
  private read(value: unknown): Reading {
    if (!isObject(value)) return { answer: invalidRequest(null, `a message is a JSON object, not ${kindOf(value)}`) };
    const hasId = 'id' in value;
    const id = isRequestId(value.id) ? value.id : null;
    if (hasId && id === null) return { answer: invalidRequest(null, `id must be a string or an integer of at most 2^53, not ${kindOf(value.id)}`) };
    if (value.jsonrpc !== '2.0') return { answer: invalidRequest(id, 'jsonrpc must be "2.0"') };
    const other = Object.keys(value).find((name) => !MEMBERS.has(name));
    if (other !== undefined) return { answer: invalidRequest(id, `a JSON-RPC message has no member ${JSON.stringify(other.slice(0, 40))}`) };
    if ('method' in value) {
      if (typeof value.method !== 'string') return { answer: invalidRequest(id, `method must be a string, not ${kindOf(value.method)}`) };
      if ('result' in value || 'error' in value) return { answer: invalidRequest(id, 'a request has a method, a response a result or an error, never both') };
      return hasId ? this.readRequest(value, id!) : this.readNotification(value);
    }
    if ('result' in value || 'error' in value) {
      const response = ('result' in value ? JSONRPCResultResponseSchema : JSONRPCErrorResponseSchema).safeParse(value);
      if (response.success) return { message: response.data };
      const said = isObject(value.error) && typeof value.error.message === 'string' ? `: ${JSON.stringify(value.error.message.slice(0, 200))}` : '';
      return { dropped: `a response from the client that is not one (${issuesText(response.error.issues as readonly Issue[])})${said}; it was dropped` };
    }
    return { answer: invalidRequest(id, 'a message has a method (a request or a notification), or a result or an error (a response)') };
  }

  private readRequest(value: Record<string, unknown>, id: RequestId): Reading {
    if (value.params !== undefined && !isObject(value.params)) return { answer: invalidParams(id, `params must be an object, not ${kindOf(value.params)}`) };
    const request = JSONRPCRequestSchema.safeParse(value);
    if (!request.success) return { answer: invalidParams(id, issuesText(request.error.issues as readonly Issue[])) };
    const method = request.data.method;
    const schema = this.options.methods.has(method) ? this.requestSchemas.get(method) : undefined;
    const checked = schema?.safeParse({ method, params: request.data.params });
    if (checked !== undefined && !checked.success) return { answer: invalidParams(id, issuesText(checked.error.issues as readonly Issue[])) };
    if (method === 'initialize') this.initializing.add(id);
    return { message: request.data };
  }

  private readNotification(value: Record<string, unknown>): Reading {
    const notification = JSONRPCNotificationSchema.safeParse(value);
    const method = String(value.method).slice(0, 80);
    if (!notification.success) return { dropped: `a notification ${JSON.stringify(method)} with bad params (${issuesText(notification.error.issues as readonly Issue[])}); it was dropped` };
    const checked = this.notificationSchemas.get(notification.data.method)?.safeParse({ method: notification.data.method, params: notification.data.params });
    if (checked !== undefined && !checked.success) return { dropped: `a notification ${JSON.stringify(method)} with bad params (${issuesText(checked.error.issues as readonly Issue[])}); it was dropped` };
    return { message: notification.data };
  }

  private deliver(message: JSONRPCMessage): void {
    // A request of a batch that the client cancels is never answered (the SDK drops its answer): the batch goes without it.
    if ('method' in message && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      const batch = id === undefined ? undefined : this.batchOf.get(id);
      if (batch !== undefined) this.answerInBatch(batch, id!, undefined);
    }
    this.onmessage?.(message);
  }

  private receiveBatch(items: readonly unknown[], line: string): void {
    if (this.version === undefined || !BATCH_VERSIONS.has(this.version)) {
      const why = this.version === undefined
        ? 'a batch before initialize: initialize comes alone, and only MCP 2025-03-26 has batches'
        : `MCP ${this.version} has no batches (only 2025-03-26 had them): send each message on a line of its own`;
      const ids = [...new Set(items.filter((item) => isObject(item) && typeof item.method === 'string' && isRequestId(item.id)).map((item) => (item as { id: RequestId }).id))];
      // Each request in it answered, so that no client waits for one; a batch of none, once.
      for (const id of ids.length === 0 ? [null] : ids) this.refuse(invalidRequest(id, why));
      return;
    }
    if (items.length === 0) return this.refuse(invalidRequest(null, 'an empty batch'));
    const batch: Batch = { answers: new Array(items.length).fill(undefined), waiting: new Map() };
    const run: JSONRPCMessage[] = [];
    // Each request's own text read for a number whose fraction the parse lost, as a line's is.
    const texts = fractionLostToDouble(line) === undefined ? undefined : arrayElements(line);
    items.forEach((item, index) => {
      const lost = texts === undefined ? undefined : fractionLostToDouble(texts[index] ?? '');
      if (lost !== undefined && isObject(item) && typeof item.method === 'string' && isRequestId(item.id)) {
        const answer = invalidParams(item.id, lostFractionWords(lost));
        batch.answers[index] = answer;
        return this.options.warn(answer.error.message);
      }
      const reading = this.read(item);
      if ('dropped' in reading) return this.options.warn(reading.dropped);
      if ('answer' in reading) {
        batch.answers[index] = reading.answer;
        return this.options.warn(reading.answer.error.message);
      }
      const { message } = reading;
      if ('method' in message && 'id' in message) {
        if (message.method === 'initialize') {
          this.initializing.delete(message.id);
          batch.answers[index] = invalidRequest(message.id, 'initialize is never part of a batch');
          return;
        }
        if (batch.waiting.has(message.id) || this.batchOf.has(message.id)) {
          batch.answers[index] = invalidRequest(message.id, `the id ${JSON.stringify(message.id)} is already in use by a request under way`);
          return;
        }
        batch.waiting.set(message.id, index);
        this.batchOf.set(message.id, batch);
      }
      run.push(message);
    });
    if (batch.waiting.size === 0) this.flush(batch);
    for (const message of run) this.deliver(message);
  }

  /** `message`, the answer to request `id` of `batch` (undefined: it gets none); the batch's answers go out once all have come. */
  private answerInBatch(batch: Batch, id: RequestId, message: JSONRPCMessage | undefined): void {
    const index = batch.waiting.get(id);
    if (index === undefined) return;
    batch.answers[index] = message;
    batch.waiting.delete(id);
    this.batchOf.delete(id);
    if (batch.waiting.size === 0) this.flush(batch);
  }

  /** A batch's answers as one array; none at all for a batch of notifications (JSON-RPC sends nothing then). */
  private flush(batch: Batch): void {
    const answers = batch.answers.filter((answer) => answer !== undefined);
    if (answers.length > 0) this.write(answers);
  }

  private refuse(answer: JsonRpcError): void {
    this.options.warn(answer.error.message);
    this.write(answer);
  }

  private write(message: JSONRPCMessage | JsonRpcError | ReadonlyArray<JSONRPCMessage | JsonRpcError>): void {
    this.output.write(`${JSON.stringify(message)}\n`);
  }
}

type RequestSchema = (typeof ClientRequestSchema.options)[number] | (typeof ClientNotificationSchema.options)[number];

function schemasByMethod(schemas: readonly RequestSchema[]): Map<string, RequestSchema> {
  return new Map(schemas.map((schema) => [schema.shape.method.value, schema]));
}

function errorOf(id: RequestId | null, code: number, message: string): JsonRpcError {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

const invalidRequest = (id: RequestId | null, why: string) => errorOf(id, -32600, `Invalid Request: ${why}`);
const invalidParams = (id: RequestId, why: string) => errorOf(id, -32602, `Invalid params: ${why}`);

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** MCP's ids: a string or an integer, never null (and JSON-RPC's fractions are not MCP's). */
function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return `the number ${value}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** What a schema says of a value it refuses (zod's issues), as far as these words read it. */
interface Issue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  expected?: unknown;
  errors?: ReadonlyArray<readonly Issue[]>;
}

/** The schema's complaints in a line: `params.name: expected string, received number`, at most three. */
function issuesText(issues: readonly Issue[]): string {
  const text = (issue: Issue) => {
    const at = issue.path.length === 0 ? 'the message' : issue.path.map(String).join('.');
    // A union (a progress token: a string or an integer) says only "Invalid input": its branches say what each expected.
    const expected = issue.code === 'invalid_union' ? [...new Set((issue.errors ?? []).flatMap((branch) => branch.map((inner) => inner.expected)))] : [];
    if (expected.length > 0 && expected.every((name) => typeof name === 'string')) {
      return `${at}: expected ${expected.map((name) => (name === 'int' ? 'an integer' : `a ${String(name)}`)).join(' or ')}`;
    }
    return `${at}: ${issue.message.replace(/^Invalid input: /, '')}`;
  };
  return issues.slice(0, 3).map(text).join('; ') + (issues.length > 3 ? `; and ${issues.length - 3} more` : '');
}

/**
 * The id of a message too large to keep, found as it goes by: a JSON scanner that follows strings
 * and nesting and keeps nothing but the top-level "id" member's value, so that the client's request
 * fails at once instead of timing out. It reads bytes: every byte of a multi-byte UTF-8 character is
 * above 0x7f, never a quote, a backslash, a brace or a bracket. What it cannot read as an id (an
 * object, a fraction, a string over 256 bytes, a message that is no object) leaves it null.
 */
class IdScanner {
  id: RequestId | null = null;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At the top level: what comes next. */
  private next: 'key' | 'colon' | 'value' | 'comma' = 'key';
  private key: number[] | undefined = [];
  private lastKey = '';
  /** The id's value being read: a string's bytes (quoted) or a number's. */
  private value: number[] | undefined;
  private notAnObject = false;

  scan(bytes: Buffer): void {
    for (let i = 0; i < bytes.length; i++) this.byte(bytes[i]!);
  }

  private byte(b: number): void {
    if (this.notAnObject) return;
    if (this.inString) {
      if (this.depth === 1) this.keep(b);
      if (this.escaped) this.escaped = false;
      else if (b === 0x5c) this.escaped = true;
      else if (b === 0x22) this.endString();
      return;
    }
    if (this.depth === 0) {
      if (b === 0x7b) this.depth = 1;
      else if (!isSpace(b)) this.notAnObject = true;
      return;
    }
    if (this.depth === 1 && this.value !== undefined && this.value[0] !== 0x22) {
      // A number (or a literal) as the id: it ends at the first byte that is not of one.
      if (/[-+.\deE]/.test(String.fromCharCode(b))) return void this.value.push(b);
      this.endNumber();
    }
    if (b === 0x22) {
      this.inString = true;
      if (this.depth === 1 && this.next === 'key') this.key = [];
      else if (this.depth === 1 && this.next === 'value' && this.lastKey === 'id') this.value = [b];
      return;
    }
    if (b === 0x7b || b === 0x5b) {
      if (this.depth === 1 && this.next === 'value' && this.lastKey === 'id') this.id = null;
      if (this.depth === 1) this.next = 'comma';
      this.depth++;
      return;
    }
    if (b === 0x7d || b === 0x5d) {
      this.depth--;
      return;
    }
    if (this.depth !== 1 || isSpace(b)) return;
    if (b === 0x3a) this.next = 'value';
    else if (b === 0x2c) this.next = 'key';
    else if (this.next === 'value') {
      this.next = 'comma';
      if (this.lastKey === 'id') this.value = [b];
    }
  }

  private keep(b: number): void {
    const into = this.next === 'key' ? this.key : this.value;
    if (into !== undefined && into.length <= 256) into.push(b);
  }

  private endString(): void {
    this.inString = false;
    if (this.depth !== 1) return;
    if (this.next === 'key') {
      // The bytes kept end with the closing quote.
      this.lastKey = decodeString(this.key) ?? '';
      this.key = undefined;
      this.next = 'colon';
    } else if (this.value !== undefined) {
      this.id = decodeString(this.value.slice(1)) ?? null;
      this.value = undefined;
      this.next = 'comma';
    } else {
      this.next = 'comma';
    }
  }

  private endNumber(): void {
    const text = Buffer.from(this.value!).toString('latin1');
    this.value = undefined;
    const id = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
    this.id = Number.isSafeInteger(id) ? id : null;
  }
}

/** A JSON string's bytes, its closing quote included, as the text it spells; undefined when they are too many or do not parse. */
function decodeString(bytes: number[] | undefined): string | undefined {
  if (bytes === undefined || bytes.length > 256) return undefined;
  try {
    return JSON.parse(`"${Buffer.from(bytes).toString('utf8')}`) as string;
  } catch {
    return undefined;
  }
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}
