import { PassThrough, type Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorResponses } from '@kosh/contract';
import type { Queryable } from '@kosh/event-store';
import { allProjections } from '@kosh/projections';
import type { FastifyInstance } from 'fastify';
import { strToU8, Zip, ZipDeflate } from 'fflate';
import { exportStream } from '../../history/export';
import { EXPORT_LIMIT, perUserLimit } from './erasure';

/** Format of `kosh-data.json`; bump when its shape changes. */
export const ACCOUNT_EXPORT_FORMAT = 'kosh-account-export/1';

/** Tables whose rows are not the user's data, or are in the archive another way. */
const LEFT_OUT = new Set([
  // Every event of the user, in `history.jsonl` (signed).
  'history_events',
]);
/** Columns never exported: secrets (token hashes) and raw file bytes. */
const secretColumn = (name: string, type: string) => name.endsWith('_hash') || type === 'bytea';

/** The spreadsheets beside the JSON: file name and table, ordered for a person reading them. */
const CSV_FILES: readonly { file: string; table: string; orderBy: string }[] = [
  { file: 'book.csv', table: 'transactions', orderBy: 'transaction_date, created_at, id' },
  { file: 'accounts.csv', table: 'accounts', orderBy: 'name, id' },
  { file: 'loans.csv', table: 'loans', orderBy: 'created_at, id' },
  { file: 'schedules.csv', table: 'loan_schedule_rows', orderBy: '1, 2, 3' },
  { file: 'ledger-months.csv', table: 'ledger_periods', orderBy: 'year, month' },
];

type Column = { table_name: string; column_name: string; data_type: string };
type Row = Record<string, unknown>;

const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/**
 * Every row of every read model (the registry's tables, so a new read model is in the export
 * without a line here) and of the import previews that belongs to the user, by its `user_id` or
 * `owner_user_id` column, without secret columns. Keyed by read model, then table.
 */
export async function ownedRows(
  db: Queryable,
  userId: string,
): Promise<Record<string, Record<string, Row[]>>> {
  const byModel = new Map<string, string[]>(allProjections.map((p) => [p.name, [...p.tables]]));
  byModel.set('import-previews', ['import_previews']);
  const tables = [...byModel.values()].flat();
  const { rows: columns } = await db.query<Column>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ANY($1::text[]) ORDER BY table_name, ordinal_position`,
    [tables],
  );
  const out: Record<string, Record<string, Row[]>> = {};
  for (const [model, names] of byModel) {
    for (const table of names) {
      if (LEFT_OUT.has(table)) continue;
      const cols = columns.filter((c) => c.table_name === table);
      const owner = cols.find((c) => c.column_name === 'user_id' || c.column_name === 'owner_user_id');
      if (!owner) continue;
      const shown = cols
        .filter((c) => !secretColumn(c.column_name, c.data_type))
        .map((c) => quoted(c.column_name));
      const { rows } = await db.query<Row>(
        `SELECT ${shown.join(', ')} FROM ${quoted(table)} WHERE ${quoted(owner.column_name)} = $1 ORDER BY 1`,
        [userId],
      );
      out[model] ??= {};
      (out[model] as Record<string, Row[]>)[table] = rows.map(plain);
    }
  }
  return out;
}

/** Dates as ISO strings, everything else as the driver gave it (numeric as text: exact paise). */
function plain(row: Row): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row))
    out[key] = value instanceof Date ? value.toISOString() : value;
  return out;
}

/** CSV as the other exports write it (UTF-8 with BOM, CRLF, quoted when needed, no formulas). */
export function csvOf(rows: readonly Row[], columns: readonly string[]): string {
  const cell = (value: unknown): string => {
    if (value === null || value === undefined) return '';
    const text =
      typeof value === 'object' && !(value instanceof Date)
        ? JSON.stringify(value)
        : value instanceof Date
          ? value.toISOString()
          : String(value);
    // A number stays a number; other text that a spreadsheet would run as a formula does not.
    const safe = /^-?\d+(\.\d+)?$/.test(text) || !/^[=+\-@\t\r]/.test(text) ? text : `'${text}`;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  const lines = [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/**
 * The archive: `kosh-data.json` (profile and every read model's rows of the user), the CSVs, and
 * `history.jsonl`, the signed history export (verify it with `npm run verify-export`). Streamed:
 * each file is compressed as it is read.
 */
export function accountArchive(
  db: Queryable,
  userId: string,
  signingKey: Parameters<typeof exportStream>[2] | null,
  now: Date,
): Readable {
  const out = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) return void out.destroy(error);
    out.write(Buffer.from(chunk));
    if (final) out.end();
  });
  const add = (name: string, text: string) => {
    const file = new ZipDeflate(name, { level: 6 });
    file.mtime = now;
    zip.add(file);
    file.push(strToU8(text), true);
  };
  (async () => {
    const rows = await ownedRows(db, userId);
    const exportedAt = now.toISOString();
    add(
      'kosh-data.json',
      JSON.stringify(
        {
          format: ACCOUNT_EXPORT_FORMAT,
          user_id: userId,
          exported_at: exportedAt,
          files: {
            history: signingKey ? 'history.jsonl' : null,
            csv: CSV_FILES.map((f) => f.file),
          },
          read_models: rows,
        },
        null,
        2,
      ),
    );
    for (const { file, table } of CSV_FILES) {
      const model = Object.values(rows).find((tables) => table in tables);
      const tableRows = model?.[table] ?? [];
      const columns = tableRows[0] ? Object.keys(tableRows[0]).filter((c) => c !== 'user_id') : [];
      add(file, csvOf(tableRows, columns));
    }
    if (signingKey) {
      const history = new ZipDeflate('history.jsonl', { level: 6 });
      history.mtime = now;
      zip.add(history);
      for await (const chunk of exportStream(db, userId, signingKey, exportedAt)) {
        history.push(strToU8(String(chunk)), false);
      }
      history.push(new Uint8Array(0), true);
    }
    zip.end();
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
}

/** Issue 32 item 3: `GET /api/account/export`, always the signed-in user's own. */
export async function accountExportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  app.get(
    '/export',
    {
      onRequest: app.authenticate,
      preHandler: perUserLimit(app, 'account-export', EXPORT_LIMIT),
      schema: {
        tags: ['account'],
        security: [{ bearerAuth: [] }],
        summary:
          'Everything of yours as one zip: kosh-data.json (every read model), CSVs of the book, accounts, loans, schedules and ledger months, and the signed history',
        response: { ...errorResponses(401, 429) },
      },
    },
    async (request, reply) => {
      // Every read model is in the archive; history is the one no command waits for.
      await platform.readModelsCurrent(['history']);
      const now = platform.clock();
      const day = now.toISOString().slice(0, 10);
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', `attachment; filename="kosh-account-${day}.zip"`)
        .header('Cache-Control', 'no-store')
        .send(accountArchive(platform.db, request.userId, platform.exportSigningKey, now) as never);
    },
  );
}
