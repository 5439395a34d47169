import type { Paise } from '../money';
import { parseStatementAmount, type StatementAmount } from './amount';
import { parseStatementDate } from './dates';
import type { CellRow } from './delimited';
import { At, StatementFileError } from './errors';
import {
  type ColumnMapping,
  headerKey,
  headerShapeKey,
  type MappedField,
  type ResolvedColumns,
  resolveColumns,
  STATEMENT_PRESETS,
  type StatementPreset,
} from './mapping';
import { errorRow, type StatementRow, transactionRow } from './row';

/** Lines read before the header row; past this the file has no header we know. */
const MAX_PREAMBLE_ROWS = 200;

const OPENING_BALANCE =
  /^\s*(opening\s+bal(ance)?|balance\s+b\/?f|b\/f|brought\s+forward|balance\s+forward)\b/i;
const TRAILER =
  /statement\s+summary|opening\s+balance|closing\s+balance|\btotals?\b|^\s*\*{3,}|end\s+of\s+statement|generated/i;

export type TableOptions = {
  /** A preset id from STATEMENT_PRESETS: only that layout is looked for. */
  preset?: string;
  /** The user's own mapping; wins over the presets. */
  mapping?: ColumnMapping;
  /**
   * Mappings the user chose before for this account, each for one header shape
   * (`headerShapeKey`): tried before the presets, on a header row of exactly that shape.
   */
  saved?: readonly SavedMapping[];
};

export type SavedMapping = { headerKey: string; mapping: ColumnMapping };

/** Where the mapping in use came from: a preset, the user's own for this file, or one saved for the account. */
export type MappingSource = 'preset' | 'custom' | 'saved';

export type TableHeader = {
  /** The preset that matched, or null for the user's own mapping. */
  preset: StatementPreset | null;
  mapping: ColumnMapping;
  source: MappingSource;
  line: number;
  cells: string[];
};

type Candidate = {
  preset: StatementPreset | null;
  mapping: ColumnMapping;
  source: MappingSource;
  /** Only a header row of this shape (a saved mapping's). */
  shape?: string;
};

/**
 * Reads a statement's table row by row: skips the preamble until a row is the header of the
 * chosen mapping or of a preset, then turns each row into a StatementRow. Blank lines, repeated
 * page headers and the trailer (summary, opening/closing balance lines, legal text, asterisks)
 * are skipped and counted; an opening-balance row is recognised; a row whose date or amount
 * cannot be read becomes an error row naming its line and column.
 */
export class TableReader {
  header: TableHeader | null = null;
  skippedLines = 0;
  private columns: ResolvedColumns | null = null;
  private headerKeys = '';
  private firstHeaderKey = '';
  private inTrailer = false;
  private preambleRows = 0;
  private rowCount = 0;
  private transactions = 0;
  private readonly candidates: Candidate[];

  constructor(options: TableOptions = {}) {
    if (options.mapping) this.candidates = [{ preset: null, mapping: options.mapping, source: 'custom' }];
    else if (options.preset !== undefined) {
      const preset = STATEMENT_PRESETS.find((candidate) => candidate.id === options.preset);
      if (!preset) throw new StatementFileError(`Unknown preset "${options.preset}".`, 'BAD_MAPPING');
      this.candidates = [{ preset, mapping: preset.mapping, source: 'preset' }];
    } else {
      this.candidates = [
        ...(options.saved ?? []).map(
          (saved): Candidate => ({
            preset: null,
            mapping: saved.mapping,
            source: 'saved',
            shape: saved.headerKey,
          }),
        ),
        ...STATEMENT_PRESETS.map(
          (preset): Candidate => ({ preset, mapping: preset.mapping, source: 'preset' }),
        ),
      ];
    }
  }

  /** The statement rows this table row yields (none for a preamble, header, blank or trailer row). */
  push(row: CellRow): StatementRow | null {
    const cells = row.cells.map((cell) => cell.trim());
    if (cells.every((cell) => cell === '')) {
      this.skippedLines += 1;
      return null;
    }
    if (this.columns === null) return this.lookForHeader(row.line, cells);
    if (headerKey(cells[0]!) === this.firstHeaderKey && cells.map(headerKey).join('|') === this.headerKeys) {
      this.inTrailer = false;
      this.skippedLines += 1;
      return null;
    }
    if (this.inTrailer) {
      this.skippedLines += 1;
      return null;
    }
    return this.readRow(row.line, cells, this.columns);
  }

  /** Checks the end of the table: a file without a header row we know is refused. */
  end(): void {
    if (this.columns === null) throw this.noHeader();
  }

  private lookForHeader(line: number, cells: string[]): null {
    for (const { shape, ...candidate } of this.candidates) {
      if (shape !== undefined && shape !== headerShapeKey(cells)) continue;
      const columns = resolveColumns(candidate.mapping, cells);
      if (columns) {
        this.columns = columns;
        this.headerKeys = cells.map(headerKey).join('|');
        this.firstHeaderKey = headerKey(cells[0]!);
        this.header = { ...candidate, line, cells };
        this.skippedLines += 1;
        return null;
      }
    }
    this.preambleRows += 1;
    this.skippedLines += 1;
    if (this.preambleRows >= MAX_PREAMBLE_ROWS) throw this.noHeader();
    return null;
  }

  private noHeader(): StatementFileError {
    const wanted =
      this.candidates.length === 1 && this.candidates[0]!.source !== 'saved'
        ? `the columns ${Object.values(this.candidates[0]!.mapping).join(', ')}`
        : `the layout of ${STATEMENT_PRESETS.map((preset) => preset.bank).join(', ')}`;
    return new StatementFileError(
      `No header row with ${wanted} was found${this.preambleRows >= MAX_PREAMBLE_ROWS ? ` in the first ${MAX_PREAMBLE_ROWS} lines` : ''}. Choose the columns yourself.`,
      'NO_HEADER',
    );
  }

  private readRow(line: number, cells: string[], columns: ResolvedColumns): StatementRow | null {
    const cell = (field: MappedField): string => {
      const index = columns[field];
      return index === undefined ? '' : (cells[index] ?? '');
    };
    const fail = (field: MappedField, message: string): StatementRow => {
      const column = columns[field]! + 1;
      const name = this.header!.cells[columns[field]!] ?? field;
      return errorRow(this.rowCount++, line, column, `${At(line, column)} (${name}): ${message}`);
    };
    const narration = cell('narration');
    const amounts = this.readAmounts(cell);
    if (amounts !== null && typeof amounts === 'object') {
      if (parseStatementDate(cell('date')) === null) return this.trailerOrError(cells, cell, fail);
      return fail(amounts.field, amounts.message);
    }
    const balance = this.readBalance(cell);
    if (OPENING_BALANCE.test(narration) && !amounts && this.transactions === 0) {
      if (balance !== null && typeof balance === 'object') return fail('balance', balance.message);
      return {
        ...errorRow(this.rowCount++, line, null, ''),
        kind: 'opening-balance',
        date: parseStatementDate(cell('date')),
        narration,
        balance,
        error: null,
      };
    }
    const date = parseStatementDate(cell('date'));
    if (date === null) {
      if (cell('date') === '' || amounts === null) return this.trailerOrError(cells, cell, fail);
      return fail('date', `"${cell('date')}" is not a day-first date (dd/mm/yy, dd-mm-yyyy, dd Mon yyyy, …)`);
    }
    if (amounts === null)
      return fail(columns.amount !== undefined ? 'amount' : 'debit', 'The row has no amount');
    if (balance !== null && typeof balance === 'object') return fail('balance', balance.message);
    const valueDateText = cell('valueDate');
    const reference = cell('reference').replace(/^'/, '');
    this.transactions += 1;
    return transactionRow({
      index: this.rowCount++,
      line,
      date,
      valueDate: valueDateText === '' ? null : parseStatementDate(valueDateText),
      amount: amounts,
      narration,
      reference: /^[0\s-]*$/.test(reference) ? null : reference,
      referenceKind: /^[0\s-]*$/.test(reference) ? null : 'bank-reference',
      balance,
    });
  }

  /** A row without a date: the trailer when it says so or carries no amount, else an error. */
  private trailerOrError(
    cells: string[],
    cell: (field: MappedField) => string,
    fail: (field: MappedField, message: string) => StatementRow,
  ): StatementRow | null {
    const text = cells.join(' ');
    if (TRAILER.test(text) || typeof this.readAmounts(cell) !== 'number') {
      if (TRAILER.test(text)) this.inTrailer = true;
      this.skippedLines += 1;
      return null;
    }
    return fail(
      'date',
      cell('date') === '' ? 'The row has no date' : `"${cell('date')}" is not a day-first date`,
    );
  }

  /** The signed amount, null for no amount at all, or the field and message of what is wrong. */
  private readAmounts(
    cell: (field: MappedField) => string,
  ): Paise | null | { field: MappedField; message: string } {
    const read = (field: MappedField): StatementAmount | null | { field: MappedField; message: string } => {
      try {
        return parseStatementAmount(cell(field));
      } catch (error) {
        return { field, message: (error as Error).message };
      }
    };
    if (this.columns!.amount !== undefined) {
      const amount = read('amount');
      if (amount === null || 'field' in amount) return amount;
      const side = this.columns!.drCr !== undefined ? drCrOf(cell('drCr')) : amount.side;
      if (side === undefined) return { field: 'drCr', message: `"${cell('drCr')}" is neither Dr nor Cr` };
      const size = Math.abs(amount.paise);
      return side === 'dr' ? -size : side === 'cr' ? size : amount.paise;
    }
    const debit = read('debit');
    const credit = read('credit');
    if (debit !== null && 'field' in debit) return debit;
    if (credit !== null && 'field' in credit) return credit;
    const out = Math.abs(debit?.paise ?? 0);
    const into = Math.abs(credit?.paise ?? 0);
    if (out !== 0 && into !== 0)
      return { field: 'credit', message: 'The row has both a withdrawal and a deposit' };
    if (debit === null && credit === null) return null;
    return into - out;
  }

  private readBalance(cell: (field: MappedField) => string): Paise | null | { message: string } {
    if (this.columns!.balance === undefined) return null;
    try {
      const balance = parseStatementAmount(cell('balance'));
      if (balance === null) return null;
      const side = this.columns!.balanceDrCr !== undefined ? drCrOf(cell('balanceDrCr')) : balance.side;
      return side === 'dr' ? -Math.abs(balance.paise) : balance.paise;
    } catch (error) {
      return { message: (error as Error).message };
    }
  }
}

/** Dr/Cr column text: 'dr', 'cr', null when empty, undefined when it is neither. */
function drCrOf(text: string): 'dr' | 'cr' | null | undefined {
  const key = text.trim().toLowerCase().replace(/\.$/, '');
  if (key === '') return null;
  if (key === 'dr' || key === 'd' || key === 'debit') return 'dr';
  if (key === 'cr' || key === 'c' || key === 'credit') return 'cr';
  return undefined;
}
