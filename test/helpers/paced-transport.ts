// Running the client on a test clock. A wait of seconds outlasts requests of milliseconds, so the
// fake sleep moves the clock only once every request sent before it has been answered and read: no
// answer is judged, or read, on a clock that jumped while it was on its way. The dispatcher counts
// what the server answered, per path.
import { Agent, type Dispatcher } from 'undici';

export interface PacedTransport {
  dispatcher: Dispatcher;
  /** Every response's status and path, in the order they came. */
  responses: Array<{ path: string; status: number }>;
  /** The same statuses alone. */
  statuses: number[];
  /** Sleeps by moving the clock, after the requests in flight are done. */
  sleep(ms: number): Promise<void>;
  close(): Promise<void>;
}

export function pacedTransport(advance: (ms: number) => void): PacedTransport {
  const agent = new Agent();
  const responses: PacedTransport['responses'] = [];
  const statuses: number[] = [];
  let inFlight = 0;
  const idle: Array<() => void> = [];
  const settled = () => {
    if (--inFlight === 0) for (const resolve of idle.splice(0)) resolve();
  };
  const dispatcher = {
    request: async (request: Dispatcher.RequestOptions) => {
      inFlight++;
      try {
        const response = await agent.request(request);
        responses.push({ path: String(request.path).split('?')[0]!, status: response.statusCode });
        statuses.push(response.statusCode);
        response.body.once('close', settled);
        return response;
      } catch (error) {
        settled();
        throw error;
      }
    },
    destroy: () => agent.destroy(),
    close: () => agent.close(),
  } as unknown as Dispatcher;
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  return {
    dispatcher,
    responses,
    statuses,
    sleep: async (ms) => {
      // Batches let go just before this wait reach the dispatcher first, and their answers are read.
      await turn();
      if (inFlight > 0) await new Promise<void>((resolve) => idle.push(resolve));
      await turn();
      advance(ms);
    },
    close: () => agent.close(),
  };
}
