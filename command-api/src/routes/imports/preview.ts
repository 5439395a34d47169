import {
  type BalanceCheck,
  buildImportPreview,
  type ColumnMapping,
  fingerprintKeys,
  fingerprintRows,
  type ImportPreviewRow,
  type MappingSource,
  type PreviewCounts,
  parseStatement,
  type SavedMapping,
  StatementFileError,
  type StatementInfo,
  sniffFileKind,
  ValidationError,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { getAccount, handEnteredTransactions, knownFingerprints, unpaidEmis } from '@kosh/projections';
import { readXlsxStatement } from '../../imports/xlsx';

/** What a preview keeps besides its rows (the `preview` column of import_previews, as JSON). */
export type StoredPreview = {
  format: string;
  encoding: string | null;
  preset: { id: string; bank: string } | null;
  mapping: ColumnMapping | null;
  /** Where the mapping came from; a preview stored before mappings were saved has none. */
  mappingSource?: MappingSource | null;
  /** The header row and its shape: a custom mapping is saved for the account under it at commit. */
  header?: { cells: string[]; key: string } | null;
  headerLine: number | null;
  skippedLines: number;
  counts: PreviewCounts;
  balance: BalanceCheck & { openingBalance: number | null };
  rows: ImportPreviewRow[];
  /** Once committed: the transaction recorded for each row index, and what was matched. */
  committed?: {
    transactions: Record<string, string>;
    imported: number;
    skipped: number;
    matched: number;
    matchProblems: string[];
  };
};

export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

/** Day before an ISO date. */
function dayBefore(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/**
 * Reads the file and judges its rows against the account (issue 30 items 3–7). A file that cannot
 * be read at all, or whose every row is unreadable, is a 422 naming the line and column; nothing
 * is stored then.
 */
export async function readStatementPreview(
  db: Queryable,
  userId: string,
  accountId: string,
  bytes: Uint8Array,
  options: { preset?: string; mapping?: ColumnMapping; saved?: readonly SavedMapping[] },
): Promise<StoredPreview> {
  if (bytes.length === 0) throw new StatementFileError('The file is empty (0 bytes).', 'EMPTY_FILE');
  // An .xlsx workbook is read by its adapter into the same table parser (wt-stmt's xlsx.ts).
  const { info, rows } =
    sniffFileKind(bytes.subarray(0, 8)) === 'xlsx'
      ? await readXlsxStatement(bytes, options)
      : parseStatement(bytes, options);
  const transactions = rows.filter((row) => row.kind === 'transaction');
  const firstError = rows.find((row) => row.kind === 'error');
  if (transactions.length === 0) {
    if (firstError?.error) {
      const { line, column, message } = firstError.error;
      const where = column == null ? `Line ${line}` : `Line ${line}, column ${column}`;
      const text = /^line \d/i.test(message) ? message : `${where}: ${message}`;
      throw new ValidationError([{ field: 'file', message: text }], text);
    }
    throw new ValidationError(
      [{ field: 'file', message: 'The file holds no transactions.' }],
      'The file holds no transactions.',
    );
  }
  const dates = transactions.map((row) => row.date!).sort();
  const from = dates[0]!;
  const to = dates.at(-1)!;
  const keys = fingerprintRows(rows).flatMap((f) => (f ? fingerprintKeys(f) : []));
  const [known, handEntered, emis, account] = await Promise.all([
    knownFingerprints(db, userId, accountId, keys),
    handEnteredTransactions(db, userId, accountId, from, to),
    unpaidEmis(db, userId, from, to),
    getAccount(db, userId, accountId, dayBefore(from)),
  ]);
  const openingBalance = account ? account.balance : null;
  const preview = buildImportPreview(rows, { known, handEntered, emis, openingBalance });
  return {
    ...describe(info),
    counts: preview.counts,
    balance: { ...preview.balance, openingBalance },
    rows: preview.rows,
  };
}

function describe(info: StatementInfo) {
  return {
    format: info.format ?? 'csv',
    encoding: info.encoding,
    preset: info.preset ? { id: info.preset.id, bank: info.preset.bank } : null,
    mapping: info.mapping,
    mappingSource: info.mappingSource,
    header: info.header,
    headerLine: info.headerLine,
    skippedLines: info.skippedLines,
  };
}
