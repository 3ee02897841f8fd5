// undici is CommonJS: a bundler's dynamic import gives its exports as `default`, Node's own ESM
// loader gives them both ways. Loaded on first use, so commands without HTTP never pay for it.
type Undici = typeof import('undici');

let loaded: Promise<Undici> | undefined;

export function loadUndici(): Promise<Undici> {
  loaded ??= import('undici').then((module) => (module as Undici & { default?: Undici }).default ?? module);
  return loaded;
}
