import { StatementFileError } from './errors';

/**
 * Turns a statement's bytes into text chunk by chunk: UTF-8 (a byte-order mark is dropped), or
 * Windows-1252 for older exports. UTF-8 is tried first; the first byte sequence that is not UTF-8
 * switches to Windows-1252, which is safe while everything before it was ASCII (both read ASCII
 * alike). A file that mixes real UTF-8 with Windows-1252 bytes is refused rather than garbled.
 */
export class StatementDecoder {
  private utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  private cp1252 = false;
  private emittedNonAscii = false;
  /** Bytes of an unfinished UTF-8 sequence at the end of the last chunk, held by the UTF-8 decoder. */
  private tail: Uint8Array = new Uint8Array(0);
  private bytesSeen = 0;

  get encoding(): 'utf-8' | 'windows-1252' {
    return this.cp1252 ? 'windows-1252' : 'utf-8';
  }

  /** Text of the next chunk of bytes (possibly empty while a UTF-8 sequence is split). */
  push(chunk: Uint8Array): string {
    return this.decode(chunk, true);
  }

  /** Whatever text is still held back at the end of the file. */
  end(): string {
    return this.decode(new Uint8Array(0), false);
  }

  private decode(chunk: Uint8Array, stream: boolean): string {
    const offset = this.bytesSeen;
    this.bytesSeen += chunk.length;
    if (this.cp1252) return decodeWindows1252(chunk);
    try {
      const text = this.utf8.decode(chunk, { stream });
      if (!this.emittedNonAscii && /[^\p{ASCII}]/u.test(text)) this.emittedNonAscii = true;
      this.tail = unfinishedSequence(chunk);
      return text;
    } catch {
      if (this.emittedNonAscii) {
        throw new StatementFileError(
          `The file mixes UTF-8 and Windows-1252 text (near byte ${offset}). Save it again as UTF-8.`,
          'BINARY_FILE',
        );
      }
      this.cp1252 = true;
      const held = new Uint8Array(this.tail.length + chunk.length);
      held.set(this.tail);
      held.set(chunk, this.tail.length);
      return decodeWindows1252(held);
    }
  }
}

/** The trailing bytes of `chunk` that start a UTF-8 sequence the chunk does not finish. */
function unfinishedSequence(chunk: Uint8Array): Uint8Array {
  for (let back = 1; back <= Math.min(3, chunk.length); back++) {
    const byte = chunk[chunk.length - back]!;
    if (byte < 0x80) return new Uint8Array(0);
    if (byte >= 0xc0) {
      const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return length > back ? chunk.slice(chunk.length - back) : new Uint8Array(0);
    }
  }
  return new Uint8Array(0);
}

/** The whole file's text, for callers that hold all of its bytes. */
export function decodeStatementBytes(bytes: Uint8Array): {
  text: string;
  encoding: 'utf-8' | 'windows-1252';
} {
  const decoder = new StatementDecoder();
  const text = decoder.push(bytes) + decoder.end();
  return { text, encoding: decoder.encoding };
}

/** Windows-1252 differs from Latin-1 in 0x80–0x9F (€, ‚, ƒ, „, …, ‘, ’, “, ”, –, —, ™, …). */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * Windows-1252 by table: Node's TextDecoder reads the 'windows-1252' label as Latin-1 (0x80 comes
 * out as U+0080, not €), so it cannot be trusted here. A single-byte code needs no streaming state.
 */
function decodeWindows1252(bytes: Uint8Array): string {
  let text = '';
  for (let start = 0; start < bytes.length; start += 8192) {
    const codes = Array.from(bytes.subarray(start, start + 8192), (byte) =>
      byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH.charCodeAt(byte - 0x80) : byte,
    );
    text += String.fromCharCode(...codes);
  }
  return text;
}
