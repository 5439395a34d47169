import { createHash, createPublicKey, type KeyObject, sign } from 'node:crypto';
import { Readable } from 'node:stream';
import { EXPORT_FORMAT, type ExportHeader, type ExportSummary, GENESIS, signedText } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { type ExportedEvent, exportPage } from '@kosh/projections';

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Base64 of the public half (SubjectPublicKeyInfo, DER). */
export function publicKeyOf(privateKey: KeyObject): string {
  return createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).toString('base64');
}

/**
 * One event line, the `ExportEventLine` shape with its keys in that order: written by hand so
 * the event's data and metadata go in as PostgreSQL's JSON text, unparsed (the verifier hashes
 * the text and parses it; whitespace inside them is the text's own).
 */
export function eventLine(n: number, prev: string, e: ExportedEvent): string {
  const s = JSON.stringify;
  const chain = e.chain ? `,"chain":{"seq":${e.chain.seq},"hash":${s(e.chain.hash)}}` : '';
  return (
    `{"n":${n},"prev":"${prev}","kind":"event","event":{"position":${s(e.position)},` +
    `"event_id":${s(e.eventId)},"stream_id":${s(e.streamId)},"stream_version":${e.streamVersion},` +
    `"type":${s(e.type)},"recorded_at":${s(e.recordedAt)},"data":${e.dataJson},` +
    `"metadata":${e.metadataJson}}${chain}}`
  );
}

/** Events read per query while streaming. */
const PAGE = 2000;

/**
 * The user's export as a stream of JSON lines (see domain/src/export/history-export.ts): read
 * page by page in log order, each line hashed as it is written.
 */
export function exportStream(db: Queryable, userId: string, key: KeyObject, exportedAt: string): Readable {
  async function* lines(): AsyncGenerator<string> {
    const header: ExportHeader = {
      n: 1,
      prev: GENESIS,
      kind: 'header',
      format: EXPORT_FORMAT,
      user_id: userId,
      exported_at: exportedAt,
    };
    let line = JSON.stringify(header);
    let n = 1;
    let count = 0;
    let chainHead: ExportSummary['chain_head'] = null;
    yield `${line}\n`;
    let after = '';
    for (;;) {
      const events = await exportPage(db, userId, after, PAGE);
      let chunk = '';
      for (const e of events) {
        n++;
        count++;
        line = eventLine(n, sha256Hex(line), e);
        chainHead = e.chain;
        chunk += `${line}\n`;
      }
      if (chunk) yield chunk;
      const last = events[events.length - 1];
      if (!last || events.length < PAGE) break;
      after = last.position;
    }
    const head = sha256Hex(line);
    const unsigned: Omit<ExportSummary, 'signature'> = {
      n: n + 1,
      prev: head,
      kind: 'summary',
      format: EXPORT_FORMAT,
      user_id: userId,
      count,
      head,
      exported_at: exportedAt,
      public_key: publicKeyOf(key),
      chain_head: chainHead,
    };
    const signature = sign(null, Buffer.from(signedText(unsigned), 'utf8'), key).toString('base64');
    yield `${JSON.stringify({ ...unsigned, signature })}\n`;
  }
  return Readable.from(lines());
}
