// config.json's text to mkt's settings and back. A file is refused when read if mkt could not write
// it back: what is read is written whole at the next change, and a login that gets a token it then
// cannot store has lost it. So the nesting is bounded before JSON.parse sees the text (JSON.parse
// takes seconds on millions of levels, and JSON.stringify overflows the stack on a few thousand), and
// so is the size of the file as mkt would write it (tab-indented, larger than a compact file).
import { MAX_CONFIG_BYTES, MAX_CONFIG_DEPTH } from '../shared/limits.js';
import { formatBytes } from '../shared/read-limited.js';
import { whereJsonFails } from '../shared/text.js';
import type { ConfigData } from './config-data.js';
import { ConfigError } from './errors.js';

/** What to do about a config file mkt cannot use. */
function fixHint(file: string): string {
  return `fix it by hand, or move it aside (mv ${file} ${file}.bak) and run mkt login again`;
}

export function tooLarge(file: string): ConfigError {
  return new ConfigError(`the config file ${file} is larger than ${formatBytes(MAX_CONFIG_BYTES)}, more than mkt reads`, fixHint(file));
}

/** The settings in `bytes`, the text of the config file `file`. */
export function parseConfig(bytes: Buffer, file: string): ConfigData {
  if (nestsDeeperThan(bytes, MAX_CONFIG_DEPTH)) {
    throw new ConfigError(`the config file ${file} nests values more than ${MAX_CONFIG_DEPTH} levels deep, more than mkt reads`, fixHint(file));
  }
  const text = bytes.toString('utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the text around the fault, which may be a token: give only where it is.
    throw new ConfigError(`the config file ${file} is not valid JSON (${whereJsonFails(text, error)})`, fixHint(file));
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigError(`the config file ${file} does not hold mkt settings (not a JSON object)`, fixHint(file));
  }
  const profiles = (data as ConfigData).profiles;
  const valid = profiles === undefined || (typeof profiles === 'object' && profiles !== null && !Array.isArray(profiles)
    && Object.values(profiles).every((profile) => typeof profile === 'object' && profile !== null && !Array.isArray(profile)));
  if (!valid) {
    throw new ConfigError(`the config file ${file} does not hold mkt settings ("profiles" must map names to objects)`, fixHint(file));
  }
  serializeConfig(data as ConfigData, file);
  return data as ConfigData;
}

/** The text mkt writes for `data`: tab-indented, as a person would edit it. */
export function serializeConfig(data: ConfigData, file: string): string {
  const text = `${JSON.stringify(data, undefined, '\t')}\n`;
  if (Buffer.byteLength(text) > MAX_CONFIG_BYTES) {
    throw new ConfigError(`the config file ${file} would be larger than ${formatBytes(MAX_CONFIG_BYTES)} as mkt writes it (indented), more than mkt reads`,
      fixHint(file));
  }
  return text;
}

/** Whether arrays and objects in the JSON text `bytes` nest deeper than `max`, found in one pass. */
function nestsDeeperThan(bytes: Buffer, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === 0x5c) i++; // a backslash: the next byte is escaped
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) {
      inString = true;
    } else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > max) return true;
    } else if (byte === 0x5d || byte === 0x7d) {
      depth--;
    }
  }
  return false;
}
