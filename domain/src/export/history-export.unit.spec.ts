import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chainLinkText, jsonbText } from './chain-hash';
import {
  EXPORT_FORMAT,
  type ExportSummary,
  GENESIS,
  signedText,
  type VerifyResult,
  verifyExport,
} from './history-export';
import { webExportCrypto } from './web-crypto';

/** A small export made as the server makes it, with a chain link on each event. */
function makeExport(events: number) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const publicKeyBase64 = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const lines = [
    JSON.stringify({
      n: 1,
      prev: GENESIS,
      kind: 'header',
      format: EXPORT_FORMAT,
      user_id: 'u',
      exported_at: 'now',
    }),
  ];
  let link = GENESIS;
  for (let i = 1; i <= events; i++) {
    const event = {
      event_id: `e${i}`,
      stream_id: `txn-${i}`,
      stream_version: 1,
      type: 'TransactionRecorded',
      data: { amount: i * 100, notes: 'चाय "tea"\n', rate: 1e-7 },
      metadata: { userId: 'u', schemaVersion: 1 },
    };
    link = sha(chainLinkText(link, event));
    lines.push(
      JSON.stringify({
        n: i + 1,
        prev: sha(lines[i - 1] as string),
        kind: 'event',
        event,
        chain: { seq: i, hash: link },
      }),
    );
  }
  const head = sha(lines[lines.length - 1] as string);
  const unsigned: Omit<ExportSummary, 'signature'> = {
    n: events + 2,
    prev: head,
    kind: 'summary',
    format: EXPORT_FORMAT,
    user_id: 'u',
    count: events,
    head,
    exported_at: 'now',
    public_key: publicKeyBase64,
    chain_head: events > 0 ? { seq: events, hash: link } : null,
  };
  const signature = sign(null, Buffer.from(signedText(unsigned)), privateKey).toString('base64');
  lines.push(JSON.stringify({ ...unsigned, signature }));
  return { lines, publicKey: publicKeyBase64 };
}

const web = webExportCrypto();
const check = (lines: string[], key?: string): Promise<VerifyResult> =>
  verifyExport(`${lines.join('\n')}\n`, web, key);

describe('verifyExport with WebCrypto (what the browser runs)', () => {
  it('accepts an untouched export, with or without events', async () => {
    const { lines, publicKey } = makeExport(3);
    expect(await check(lines, publicKey)).toMatchObject({
      ok: true,
      count: 3,
      chainHead: { seq: 3 },
      recomputed: 3,
    });
    const empty = makeExport(0);
    expect(await check(empty.lines, empty.publicKey)).toMatchObject({ ok: true, count: 0, chainHead: null });
  });

  it('names the line that was altered, removed or moved', async () => {
    const { lines, publicKey } = makeExport(4);
    const altered = [...lines];
    altered[2] = (altered[2] as string).replace('"amount":200', '"amount":300');
    expect(await check(altered, publicKey)).toMatchObject({ ok: false, line: 3 });
    expect(
      await check(
        lines.filter((_, i) => i !== 3),
        publicKey,
      ),
    ).toMatchObject({ ok: false, line: 4 });
    const swapped = [lines[0], lines[2], lines[1], ...lines.slice(3)] as string[];
    expect(await check(swapped, publicKey)).toMatchObject({ ok: false, line: 2 });
    expect(await check(lines.slice(0, -1), publicKey)).toMatchObject({ ok: false, line: lines.length });
  });

  it('refuses a gap in the store chain, a re-signed file, and another key', async () => {
    const { lines, publicKey } = makeExport(2);
    const gap = [...lines];
    gap[2] = (gap[2] as string).replace('"seq":2', '"seq":3');
    expect(await check(gap, publicKey)).toMatchObject({ ok: false, line: 3 });
    const summary = JSON.parse(lines[3] as string);
    const forged = [...lines.slice(0, 3), JSON.stringify({ ...summary, count: 1 })];
    expect(await check(forged, publicKey)).toMatchObject({ ok: false, line: 4 });
    const other = makeExport(2);
    expect(await check(lines, other.publicKey)).toMatchObject({ ok: false, line: 4 });
  });
});

describe('the store chain recomputed from the lines', () => {
  it('prints data as PostgreSQL prints jsonb: keys by length then bytes, plain numbers, few escapes', () => {
    expect(jsonbText({ bb: 1, a: [true, null, 'x'], ccc: { z: 1e-7, y: 1.5e21, x: -0 } })).toBe(
      '{"a": [true, null, "x"], "bb": 1, "ccc": {"x": 0, "y": 1500000000000000000000, "z": 0.0000001}}',
    );
    expect(jsonbText('ü "q" \\ \t \u0001 ₹')).toBe('"ü \\"q\\" \\\\ \\t \\u0001 ₹"');
  });

  it('fails at an event whose content no longer hashes to its link, even with every line hash redone', async () => {
    const { lines, publicKey } = makeExport(3);
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    // Line 3's amount edited, and every later line's `prev` (and the head) made to match: only
    // the signature and the chain link still tell.
    const edited = lines.map((l) => JSON.parse(l));
    edited[2].event.data.amount = 99_900;
    for (let i = 1; i < edited.length; i++) edited[i].prev = sha(JSON.stringify(edited[i - 1]));
    const result = await check(
      edited.map((l) => JSON.stringify(l)),
      publicKey,
    );
    expect(result).toMatchObject({ ok: false, line: 3 });
    expect(result.ok ? '' : result.reason).toContain('changed after it was recorded');
  });

  it('refuses a signed summary with a field the signature does not cover', async () => {
    const { lines, publicKey } = makeExport(2);
    const summary = JSON.parse(lines[3] as string);
    const noted = [...lines.slice(0, 3), JSON.stringify({ ...summary, note: 'all figures audited' })];
    const result = await check(noted, publicKey);
    expect(result).toMatchObject({ ok: false, line: 4 });
    expect(result.ok ? '' : result.reason).toContain('note');
  });

  it('says a file that is not an export is not one', async () => {
    for (const text of ['', 'date,amount\n2026-01-01,5\n', '{"hello":"world"}\n', '\u0000\u0001']) {
      expect(await verifyExport(text, web)).toMatchObject({ ok: false, line: 1, notAnExport: true });
    }
  });
});
