// The store's one error, apart from the store so that main can map it without loading the store.
import { MktError } from '../shared/errors.js';

/** The config file cannot be used: not JSON, not mkt's shape, or not readable. Exit 2. */
export class ConfigError extends MktError {
  override name = 'ConfigError';

  constructor(message: string, hint?: string) {
    super('CONFIG', message, { hint });
  }
}
