import {
  type BalanceCheck,
  buildImportPreview,
  type ColumnMapping,
  fingerprintKeys,
  fingerprintRows,
  type ImportPreviewRow,
  type MappingSource,
  type ParsedStatement,
  type PreviewCounts,
  parseStatement,
  type SavedMapping,
  StatementFileError,
  type StatementInfo,
  StatementParser,
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
  /** The file already read as it arrived (`StreamedStatement`), with these options. */
  parsed?: ParsedStatement,
): Promise<StoredPreview> {
  if (bytes.length === 0) throw new StatementFileError('The file is empty (0 bytes).', 'EMPTY_FILE');
  // An .xlsx workbook is read by its adapter into the same table parser (wt-stmt's xlsx.ts).
  const { info, rows } =
    parsed ??
    (sniffFileKind(bytes.subarray(0, 8)) === 'xlsx'
      ? await readXlsxStatement(bytes, options)
      : parseStatement(bytes, options));
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
  const fingerprints = fingerprintRows(rows);
  const keys: string[] = [];
  for (const f of fingerprints) if (f) keys.push(...fingerprintKeys(f));
  const [known, handEntered, emis, account] = await Promise.all([
    knownFingerprints(db, userId, accountId, keys),
    handEnteredTransactions(db, userId, accountId, from, to),
    unpaidEmis(db, userId, from, to),
    getAccount(db, userId, accountId, dayBefore(from)),
  ]);
  const openingBalance = account ? account.balance : null;
  const preview = buildImportPreview(rows, { known, fingerprints, handEntered, emis, openingBalance });
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

/**
 * A text statement read chunk by chunk as the upload arrives (issue 30 item 11): the parser holds
 * no more than a chunk and a line, so the rows are read while the rest of the file is still on
 * the wire. The chunks are kept too (at most the upload limit), for a later change of mapping.
 * An `.xlsx` (a zip, read whole by its adapter) or a file the parser refuses is left to
 * `readStatementPreview`, which reads the bytes again and gives the refusal its answer.
 */
export class StreamedStatement {
  private readonly chunks: Buffer[] = [];
  private parser: StatementParser | null = null;
  private readonly rows: ReturnType<StatementParser['push']> = [];
  private failed = false;
  private started = false;

  constructor(readonly options: { preset?: string; mapping?: ColumnMapping }) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    if (this.failed) return;
    try {
      if (!this.started) {
        this.started = true;
        if (sniffFileKind(chunk.subarray(0, 8)) === 'xlsx') {
          this.failed = true;
          return;
        }
        this.parser = new StatementParser(this.options);
      }
      for (const row of this.parser!.push(chunk)) this.rows.push(row);
    } catch {
      this.failed = true;
    }
  }

  /** The whole file, and its rows when the parser read it all. */
  end(): { bytes: Buffer; parsed: ParsedStatement | undefined } {
    const bytes = Buffer.concat(this.chunks);
    if (this.failed || !this.parser) return { bytes, parsed: undefined };
    try {
      for (const row of this.parser.end()) this.rows.push(row);
      return { bytes, parsed: { info: this.parser.info, rows: this.rows } };
    } catch {
      return { bytes, parsed: undefined };
    }
  }
}
