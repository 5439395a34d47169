import { createHash, createPublicKey, type KeyObject, sign } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  EXPORT_FORMAT,
  type ExportEventLine,
  type ExportHeader,
  type ExportSummary,
  GENESIS,
  signedText,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { exportEventData, exportPage } from '@kosh/projections';

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Base64 of the public half (SubjectPublicKeyInfo, DER). */
export function publicKeyOf(privateKey: KeyObject): string {
  return createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).toString('base64');
}

const DATA_SLOT = '"data":null,"metadata":';

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
        // An event History keeps a summary of (a statement import): its data as the log recorded
        // it, read alone and written out before the next is read, so a big import is in memory once.
        const fromLog = e.data === null;
        if (fromLog && chunk) {
          yield chunk;
          chunk = '';
        }
        const dataText = fromLog ? await exportEventData(db, userId, e) : null;
        const next: ExportEventLine = {
          n,
          prev: sha256Hex(line),
          kind: 'event',
          event: {
            position: e.position,
            event_id: e.eventId,
            stream_id: e.streamId,
            stream_version: e.streamVersion,
            type: e.type,
            recorded_at: e.recordedAt,
            data: e.data,
            metadata: e.metadata,
          },
          ...(e.chain ? { chain: e.chain } : {}),
        };
        chainHead = e.chain;
        line = JSON.stringify(next);
        // The log's JSON text goes in as it is: `"data":null,"metadata":` can only be the event's
        // own keys here (every field before it is a string, whose quotes JSON escapes).
        if (dataText !== null) line = line.replace(DATA_SLOT, () => `"data":${dataText},"metadata":`);
        chunk += `${line}\n`;
        if (fromLog) {
          yield chunk;
          chunk = '';
        }
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
