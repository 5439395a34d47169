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
 * (`compareExports`): history the store rewrote after an export does not.
 */

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
    }
  | { ok: false; line: number; reason: string };

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
  let chained: boolean | null = null;
  let lastLink: ChainLink | null = null;
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
        lastLink = link;
      }
    } else if (line.kind === 'summary') {
      if (!last) return fail(number + 1, 'lines after the summary');
      const s = line as ExportSummary;
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
      };
    } else {
      return fail(number, 'unknown line kind: altered');
    }
    previous = raw;
  }
  return fail(lines.length + 1, 'the signed summary line was removed');
}

/**
 * Whether a later export (already verified) keeps the history an earlier one signed: the same
 * user, and the same hash at the earlier export's chain head. Null when it does, else why not.
 */
export function compareExports(
  earlier: Extract<VerifyResult, { ok: true }>,
  laterText: string,
  later: Extract<VerifyResult, { ok: true }>,
): string | null {
  if (earlier.userId !== later.userId) return 'the exports are of different users';
  const head = earlier.chainHead;
  if (!head) return 'the earlier export carries no chain head';
  if (!later.chainHead || later.chainHead.seq < head.seq)
    return 'the later export ends before the earlier one';
  for (const raw of laterText.split('\n')) {
    if (!raw.includes(`"seq":${head.seq},`)) continue;
    const line = JSON.parse(raw) as ExportEventLine;
    if (line.chain?.seq !== head.seq) continue;
    return line.chain.hash === head.hash
      ? null
      : `chain link ${head.seq} differs: the history before ${earlier.exportedAt} was rewritten`;
  }
  return `chain link ${head.seq} is missing from the later export`;
}
