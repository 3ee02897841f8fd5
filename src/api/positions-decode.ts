// A positions file's bytes to text: UTF-8 unless told, a byte-order mark (UTF-8, UTF-16 LE or BE)
// deciding over any label, as the WHATWG Encoding standard has it, and any other encoding the
// platform's TextDecoder knows when the caller names it (cp1252, the windows-1252 of Excel on
// Windows). Bytes that are not text in the encoding are refused, naming the first one that is not
// UTF-8, never read as U+FFFD: a replaced character in a header or a symbol is a silent change.
import { TextDecoder } from 'node:util';
import { OptionsError } from './errors.js';
import { PositionsError, shownValue } from './positions-error.js';

/** The text of `bytes`, decoded as their byte-order mark says, else as `encoding`, else as UTF-8. */
export function decodePositions(bytes: Uint8Array, encoding: string | undefined, source: string | undefined): string {
  const label = byteOrderMark(bytes) ?? encoding ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    throw new OptionsError('INVALID_OPTIONS', `encoding ${shownValue(label)} is not one this platform can decode`, {
      option: 'encoding', hint: 'name an encoding as the WHATWG Encoding standard labels it: utf-8, utf-16le, cp1252 (windows-1252), latin1, iso-8859-15, shift_jis...',
    });
  }
  try {
    // As a stream, then flushed: Node 20's one-call decode of windows-1252 is ISO-8859-1's (0x80 read
    // as U+0080, not €), while its streaming decode is ICU's, right on every Node.
    return decoder.decode(bytes, { stream: true }) + decoder.decode();
  } catch {
    if (decoder.encoding !== 'utf-8') {
      throw new PositionsError(`is not ${decoder.encoding} text`, { reason: 'encoding', source, option: 'encoding', hint: 'give the encoding it is written in' });
    }
    const at = firstBadByte(bytes);
    const line = 1 + bytes.subarray(0, at).filter((byte) => byte === 0x0a).length;
    const hex = bytes[at]!.toString(16).toUpperCase().padStart(2, '0');
    throw new PositionsError(`is not UTF-8 text: byte ${at + 1} of the file is 0x${hex}, which UTF-8 does not allow there`, {
      reason: 'encoding', source, line, value: `0x${hex}`, option: 'encoding',
      hint: 'a spreadsheet exported on Windows is often cp1252 (windows-1252): read it as that, or as the encoding it is in',
    });
  }
}

/** The encoding a byte-order mark at the start of `bytes` names. */
function byteOrderMark(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * The offset of the first byte that is not UTF-8. The platform's lenient decoder puts one U+FFFD
 * where the first bad sequence starts; the text before it is valid and re-encodes to the same
 * bytes, so its length in UTF-8 is the offset (a U+FFFD written in the file, EF BF BD, is passed over).
 */
function firstBadByte(bytes: Uint8Array): number {
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  let offset = 0;
  let from = 0;
  for (let i = text.indexOf('\uFFFD'); i !== -1; i = text.indexOf('\uFFFD', i + 1)) {
    offset += Buffer.byteLength(text.slice(from, i), 'utf8');
    if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd) return offset;
    offset += 3;
    from = i + 1;
  }
  return offset;
}
