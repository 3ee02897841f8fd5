// The store's one error, apart from the store so that main can map it without loading conf.

/** The config file cannot be used: not JSON, not mkt's shape, or not readable. Exit 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  code = 'CONFIG';
  hint: string | undefined;

  constructor(message: string, hint?: string) {
    super(message);
    this.hint = hint;
  }
}
