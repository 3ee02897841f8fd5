// One dispatcher in front of several (the direct agent and a proxy agent per proxy): each request
// goes to the one its origin is routed to, and closing or destroying the router closes them all.
import type { Dispatcher as DispatcherType } from 'undici';

/**
 * A router over `parts`, made from `Dispatcher` (undici's base class, loaded with the rest of it:
 * the CLI imports no part of undici before its first request).
 */
export function createProxyRouter(
  Dispatcher: typeof DispatcherType, parts: readonly DispatcherType[], route: (origin: URL) => DispatcherType,
): DispatcherType {
  class ProxyRouter extends Dispatcher {
    override dispatch(options: DispatcherType.DispatchOptions, handler: DispatcherType.DispatchHandler): boolean {
      return route(new URL(String(options.origin))).dispatch(options, handler);
    }

    override close(): Promise<void>;
    override close(callback: () => void): void;
    override close(callback?: () => void): Promise<void> | void {
      const closed = Promise.all(parts.map((part) => part.close())).then(() => {});
      if (!callback) return closed;
      void closed.then(callback, callback);
    }

    override destroy(): Promise<void>;
    override destroy(error: Error | null): Promise<void>;
    override destroy(callback: () => void): void;
    override destroy(error: Error | null, callback: () => void): void;
    override destroy(first?: Error | null | (() => void), second?: () => void): Promise<void> | void {
      const callback = typeof first === 'function' ? first : second;
      const error = typeof first === 'function' ? null : first ?? null;
      const destroyed = Promise.all(parts.map((part) => part.destroy(error))).then(() => {});
      if (!callback) return destroyed;
      void destroyed.then(callback, callback);
    }
  }
  return new ProxyRouter();
}
