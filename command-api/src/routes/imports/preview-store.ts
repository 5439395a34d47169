import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import type { ImportPreviewRow } from '@kosh/domain';

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

/**
 * How a preview's rows are stored (issue 30 item 11): in `import_previews.rows` (bytea), apart from
 * the small summary in `preview`, as one JSON array of tuples (no key names; `notes` null when it
 * is the narration) deflated at level 1 on the thread pool. A 50,000-row preview is then about
 * 2 MB written instead of 26 MB of JSON, and listing previews never reads rows.
 */
type PackedRow = [
  index: number,
  line: number,
  status: ImportPreviewRow['status'],
  reason: string | null,
  date: string | null,
  amount: number,
  balance: number | null,
  narration: string,
  notes: string | null,
  channel: string | null,
  counterparty: string | null,
  reference: string | null,
  fingerprints: string[],
  possibleDuplicateOf: ImportPreviewRow['possibleDuplicateOf'],
  emi: ImportPreviewRow['emi'],
  decision: ImportPreviewRow['decision'],
  matchEmi: 0 | 1,
];

function pack(row: ImportPreviewRow): PackedRow {
  return [
    row.index,
    row.line,
    row.status,
    row.reason,
    row.date,
    row.amount,
    row.balance,
    row.narration,
    row.notes === row.narration ? null : row.notes,
    row.channel,
    row.counterparty,
    row.reference,
    row.fingerprints,
    row.possibleDuplicateOf,
    row.emi,
    row.decision,
    row.matchEmi ? 1 : 0,
  ];
}

function unpack(p: PackedRow): ImportPreviewRow {
  return {
    index: p[0],
    line: p[1],
    status: p[2],
    reason: p[3],
    date: p[4],
    amount: p[5],
    balance: p[6],
    narration: p[7],
    notes: p[8] ?? p[7],
    channel: p[9],
    counterparty: p[10],
    reference: p[11],
    fingerprints: p[12],
    possibleDuplicateOf: p[13],
    emi: p[14],
    decision: p[15],
    matchEmi: p[16] === 1,
  };
}

/** The rows as stored in `import_previews.rows`. */
export async function encodePreviewRows(rows: readonly ImportPreviewRow[]): Promise<Buffer> {
  return deflate(Buffer.from(JSON.stringify(rows.map(pack))), { level: 1 });
}

/** The rows of `import_previews.rows`. */
export async function decodePreviewRows(bytes: Buffer): Promise<ImportPreviewRow[]> {
  return (JSON.parse((await inflate(bytes)).toString('utf8')) as PackedRow[]).map(unpack);
}
