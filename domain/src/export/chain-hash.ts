/**
 * The event store's per-user hash chain (event-store migration 003), recomputed from an export's
 * lines: link = sha256(previous link | event id | stream id | stream version | type | data |
 * metadata), data and metadata as PostgreSQL prints jsonb. An event whose content was changed in
 * the database after it was chained no longer hashes to its link.
 */

/**
 * Events whose data held secrets (a password hash, a link token) the export withholds: their
 * links cannot be recomputed from the export. Every other event's can.
 */
export const EVENTS_WITH_WITHHELD_SECRETS: ReadonlySet<string> = new Set([
  'UserRegistered',
  'EmailVerificationRequested',
  'PasswordResetRequested',
  'PasswordResetCompleted',
  'PasswordChanged',
  'EmailChangeRequested',
]);

const utf8 = new TextEncoder();

const ASCII = /^[\x20-\x7e]*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters jsonb escapes
const NEEDS_ESCAPE = /[\u0000-\u001f"\\]/;

/** jsonb's key order: shorter keys first, then by their UTF-8 bytes. */
function compareKeys(a: string, b: string): number {
  // ASCII keys (all of ours): a character is a byte, so length and code units order them alike.
  if (ASCII.test(a) && ASCII.test(b))
    return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** A string as jsonb prints it: only `"`, `\` and control characters escaped. */
function jsonbString(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  let out = '"';
  for (const c of text) {
    const code = c.codePointAt(0) ?? 0;
    if (c === '"') out += '\\"';
    else if (c === '\\') out += '\\\\';
    else if (c === '\b') out += '\\b';
    else if (c === '\f') out += '\\f';
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (code < 0x20) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

/** A number as jsonb's numeric prints it: plain decimal, never an exponent. */
function jsonbNumber(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const digits = whole + fraction;
  const point = whole.length + Number(exponentText);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** `value` as PostgreSQL prints it as jsonb (`data::text`). */
export function jsonbText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return jsonbNumber(value);
  if (typeof value === 'string') return jsonbString(value);
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => compareKeys(a, b));
  return `{${entries.map(([key, child]) => `${jsonbString(key)}: ${jsonbText(child)}`).join(', ')}}`;
}

/** The text whose SHA-256 is the link of `event` after the link `previousHash`. */
export function chainLinkText(
  previousHash: string,
  event: Readonly<{
    event_id: string;
    stream_id: string;
    stream_version: number;
    type: string;
    data: unknown;
    metadata: unknown;
  }>,
): string {
  return [
    previousHash,
    event.event_id,
    event.stream_id,
    String(event.stream_version),
    event.type,
    jsonbText(event.data),
    jsonbText(event.metadata),
  ].join('|');
}
