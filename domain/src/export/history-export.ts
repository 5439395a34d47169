/**
 * The tamper-evident history export (GET /api/export/history): JSON Lines. Line 1 is a header,
 * then one line per event in log order, then a signed summary. Every line carries `n` (its line
 * number) and `prev` (SHA-256, hex, of the previous line's exact text; 64 zeros on line 1). The
 * summary carries the event count, the head (hash of the last event line), the time, and an
 * Ed25519 signature over `signedText(summary)` by the server's key (its public half is in the
 * summary and at /api/export/public-key). Shared by the server, `npm run verify-export` and the
 * web app; the crypto is injected (node:crypto or WebCrypto).
 *
 * Where the event store keeps per-user hash chains (PostgreSQL, PGlite), each event line also
 * carries its link (`chain`: number and hash in the owner's chain) and the summary the chain's
 * head: the links must run 1, 2, 3… with no gap (the export misses no event the store chained),
 * and a later export must hold the same hash at every link an earlier one signed
 * (`compareExports`): history the store rewrote after an export does not. Each link is also
 * recomputed from its line (chain-hash.ts), so an event whose content was changed in the
 * database after it was chained fails at its line, rewritten chain or not when compared with an
 * earlier export.
 */
import { chainLinkText, EVENTS_WITH_WITHHELD_SECRETS } from './chain-hash';

export const EXPORT_FORMAT = 'kosh-history-export/1';
export const GENESIS = '0'.repeat(64);

export type ExportHeader = {
  n: 1;
  prev: string;
  kind: 'header';
  format: string;
  user_id: string;
  exported_at: string;
};

export type ExportEventLine = {
  n: number;
  prev: string;
  kind: 'event';
  event: {
    position: string;
    event_id: string;
    stream_id: string;
    stream_version: number;
    type: string;
    recorded_at: string;
    data: unknown;
    metadata: unknown;
  };
  chain?: ChainLink;
};

/** An event's place in its owner's hash chain in the event store. */
export type ChainLink = { seq: number; hash: string };

export type ExportSummary = {
  n: number;
  prev: string;
  kind: 'summary';
  format: string;
  user_id: string;
  count: number;
  head: string;
  exported_at: string;
  /** Base64 of the Ed25519 public key (SubjectPublicKeyInfo, DER). */
  public_key: string;
  /** The last event's link in the store's chain (null: the store keeps none, or no events). */
  chain_head: ChainLink | null;
  /** Base64 Ed25519 signature of `signedText(this)`. */
  signature: string;
};

/** What the signature covers: every field of the summary but the signature. */
export function signedText(s: Omit<ExportSummary, 'signature'>): string {
  const chain = s.chain_head ? `${s.chain_head.seq}:${s.chain_head.hash}` : '';
  return [s.format, s.user_id, s.n, s.prev, s.count, s.head, s.exported_at, s.public_key, chain].join('\n');
}

export type ExportCrypto = {
  sha256Hex(text: string): Promise<string> | string;
  verifyEd25519(
    publicKeyBase64: string,
    message: string,
    signatureBase64: string,
  ): Promise<boolean> | boolean;
};

export type VerifyResult =
  | {
      ok: true;
      count: number;
      head: string;
      exportedAt: string;
      publicKey: string;
      userId: string;
      chainHead: ChainLink | null;
      /** Events whose chain links were recomputed from their lines (the others hold withheld secrets). */
      recomputed: number;
    }
  | {
      ok: false;
      line: number;
      reason: string;
      /** The file is not a Kosh history export at all (rather than an altered one). */
      notAnExport?: true;
    };

/** The fields of a summary: the signature covers every one, so no other may be added. */
const SUMMARY_FIELDS = new Set([
  'n',
  'prev',
  'kind',
  'format',
  'user_id',
  'count',
  'head',
  'exported_at',
  'public_key',
  'chain_head',
  'signature',
]);

const NOT_AN_EXPORT = 'not a Kosh history export (its first line is not an export header)';

/**
 * Checks an export: OK, or the first line that was altered, removed or reordered (1-based).
 * `trustedPublicKey`: when given, the summary must be signed by exactly this key.
 */
export async function verifyExport(
  text: string,
  crypto: ExportCrypto,
  trustedPublicKey?: string,
): Promise<VerifyResult> {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const fail = (line: number, reason: string): VerifyResult => ({ ok: false, line, reason });
  let previous: string | null = null;
  let events = 0;
  let recomputed = 0;
  let chained: boolean | null = null;
  let lastLink: ChainLink | null = null;
  if (!isHeader(lines[0])) return { ok: false, line: 1, reason: NOT_AN_EXPORT, notAnExport: true };
  for (let i = 0; i < lines.length; i++) {
    const number = i + 1;
    const raw = lines[i] as string;
    let line: { n?: unknown; prev?: unknown; kind?: unknown };
    try {
      line = JSON.parse(raw);
    } catch {
      return fail(number, 'not a JSON line: altered');
    }
    if (typeof line !== 'object' || line === null) return fail(number, 'not an export line: altered');
    if (line.n !== number) {
      if (typeof line.n === 'number' && line.n > number) return fail(number, `line ${number} was removed`);
      return fail(number, `line ${String(line.n)} appears at line ${number}: reordered or repeated`);
    }
    const expectedPrev = previous === null ? GENESIS : await crypto.sha256Hex(previous);
    if (line.prev !== expectedPrev) {
      // This line is where it belongs; the line before it is not the one it followed.
      return number === 1 ? fail(1, 'altered') : fail(number - 1, `line ${number - 1} was altered`);
    }
    const last = number === lines.length;
    if (number === 1) {
      const h = line as ExportHeader;
      if (h.kind !== 'header' || h.format !== EXPORT_FORMAT)
        return fail(1, 'not a Kosh history export header');
    } else if (line.kind === 'event') {
      if (last) return fail(number + 1, 'the signed summary line was removed');
      events++;
      const link = (line as ExportEventLine).chain;
      chained ??= link !== undefined;
      if (chained !== (link !== undefined)) return fail(number, 'an event without its chain link: altered');
      if (link) {
        if (link.seq !== (lastLink?.seq ?? 0) + 1) {
          return fail(
            number,
            `chain link ${link.seq} follows link ${lastLink?.seq ?? 0}: an event of the store is missing`,
          );
        }
        const { event } = line as ExportEventLine;
        if (!EVENTS_WITH_WITHHELD_SECRETS.has(event.type)) {
          const expected = await crypto.sha256Hex(chainLinkText(lastLink?.hash ?? GENESIS, event));
          if (expected !== link.hash) {
            return fail(
              number,
              `line ${number} changed after it was recorded: it no longer hashes to its chain link`,
            );
          }
          recomputed++;
        }
        lastLink = link;
      }
    } else if (line.kind === 'summary') {
      if (!last) return fail(number + 1, 'lines after the summary');
      const added = Object.keys(line).filter((key) => !SUMMARY_FIELDS.has(key));
      if (added.length > 0) {
        return fail(
          number,
          `the summary holds ${added.join(', ')}, which the signature does not cover: altered`,
        );
      }
      const s = line as ExportSummary;
      if (s.chain_head !== null && Object.keys(s.chain_head ?? {}).join() !== 'seq,hash') {
        return fail(number, 'the summary chain head holds more than its link: altered');
      }
      if (s.count !== events)
        return fail(number, `the summary counts ${s.count} events, the file has ${events}`);
      if (s.head !== expectedPrev) return fail(number, 'the summary head is not the last event line');
      const head = s.chain_head ?? null;
      if (head?.seq !== lastLink?.seq || head?.hash !== lastLink?.hash) {
        return fail(number, 'the summary chain head is not the last event link');
      }
      if (trustedPublicKey && s.public_key !== trustedPublicKey) {
        return fail(number, 'signed by another key than the server key');
      }
      const { signature, ...unsigned } = s;
      const valid = await Promise.resolve(
        crypto.verifyEd25519(s.public_key, signedText(unsigned), signature),
      ).catch(() => false);
      if (!valid) return fail(number, 'the signature does not match: altered');
      return {
        ok: true,
        count: events,
        head: s.head,
        exportedAt: s.exported_at,
        publicKey: s.public_key,
        userId: s.user_id,
        chainHead: head,
        recomputed,
      };
    } else {
      return fail(number, 'unknown line kind: altered');
    }
    previous = raw;
  }
  return fail(lines.length + 1, 'the signed summary line was removed');
}

function isHeader(raw: string | undefined): boolean {
  try {
    const header = JSON.parse(raw ?? '') as Partial<ExportHeader> | null;
    return header?.kind === 'header' && header.format === EXPORT_FORMAT;
  } catch {
    return false;
  }
}

/** An export's event lines by their link in the store's chain, with their line numbers. */
function linesByLink(text: string): Map<number, { line: number; event: ExportEventLine }> {
  const byLink = new Map<number, { line: number; event: ExportEventLine }>();
  text.split('\n').forEach((raw, i) => {
    if (!raw.includes('"kind":"event"')) return;
    const event = JSON.parse(raw) as ExportEventLine;
    if (event.chain) byLink.set(event.chain.seq, { line: i + 1, event });
  });
  return byLink;
}

/**
 * Whether a later export (verified, as the earlier one) keeps the history the earlier one signed:
 * the same user, and at every link up to the earlier export's chain head the same event content
 * and the same hash. Null when it does, else the first line of the later export that differs.
 */
export function compareExports(
  earlier: Extract<VerifyResult, { ok: true }>,
  earlierText: string,
  laterText: string,
  later: Extract<VerifyResult, { ok: true }>,
): string | null {
  if (earlier.userId !== later.userId) return 'the exports are of different users';
  const head = earlier.chainHead;
  if (!head) return 'the earlier export carries no chain head';
  if (!later.chainHead || later.chainHead.seq < head.seq)
    return 'the later export ends before the earlier one';
  const before = linesByLink(earlierText);
  const after = linesByLink(laterText);
  for (let seq = 1; seq <= head.seq; seq++) {
    const was = before.get(seq);
    const now = after.get(seq);
    if (!was || !now) return `chain link ${seq} is missing from the ${was ? 'later' : 'earlier'} export`;
    const changed =
      JSON.stringify(was.event.event) !== JSON.stringify(now.event.event)
        ? 'its content changed'
        : was.event.chain?.hash !== now.event.chain?.hash
          ? 'its chain link was rewritten'
          : null;
    if (changed) {
      return (
        `line ${now.line} (chain link ${seq}, ${now.event.event.type}) differs from line ${was.line} of the ` +
        `earlier export: ${changed} after ${earlier.exportedAt}`
      );
    }
  }
  return null;
}
