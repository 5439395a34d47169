import type { Paise } from '../money';
import { StatementDecoder } from './decode';
import { type CellRow, DelimitedReader } from './delimited';
import { StatementFileError } from './errors';
import { type ColumnMapping, headerShapeKey, type StatementPreset } from './mapping';
import { parseOfx } from './ofx';
import { parseQif } from './qif';
import type { StatementRow } from './row';
import { SAVE_AS_XLSX_OR_CSV, sniffFileKind, sniffTextFormat, type TextFormat } from './sniff';
import { type MappingSource, type TableOptions, TableReader } from './table';

export type StatementFormat = Exclude<TextFormat, 'html'> | 'xlsx';

/** What the parser found out about the file; complete once `end()` has run. */
export type StatementInfo = {
  format: StatementFormat | null;
  encoding: 'utf-8' | 'windows-1252' | null;
  /** The layout that matched (CSV, TSV, xlsx), or null for the user's mapping, OFX and QIF. */
  preset: StatementPreset | null;
  mapping: ColumnMapping | null;
  /** Where `mapping` came from (null: OFX and QIF, which have none). */
  mappingSource: MappingSource | null;
  /** The header row's cells and their shape (`headerShapeKey`), as a saved mapping is keyed. */
  header: { cells: string[]; key: string } | null;
  headerLine: number | null;
  /** Preamble, blank, repeated-header and trailer lines that are not rows. */
  skippedLines: number;
  /** OFX LEDGERBAL. */
  ledgerBalance: { amount: Paise; date: string | null } | null;
};

/** Text is sniffed once this much has arrived (or the file ends). */
const SNIFF_CHARS = 4096;

/**
 * Reads a statement file chunk by chunk (bytes in, StatementRows out) with bounded memory for
 * CSV and TSV: only the unfinished last line is held. OFX and QIF are read whole at the end
 * (their size is capped by the upload limit). An `.xlsx` is refused here: its cells reach
 * `StatementTableParser` through the xlsx adapter outside the domain. Throws StatementFileError
 * for a file that cannot be read at all.
 */
export class StatementParser {
  readonly info: StatementInfo = {
    format: null,
    encoding: null,
    preset: null,
    mapping: null,
    mappingSource: null,
    header: null,
    headerLine: null,
    skippedLines: 0,
    ledgerBalance: null,
  };
  private readonly decoder = new StatementDecoder();
  private head = new Uint8Array(0);
  private pending = '';
  private whole: string[] | null = null;
  private table: StatementTableParser | null = null;
  private delimited: DelimitedReader | null = null;

  constructor(private readonly options: TableOptions = {}) {}

  push(chunk: Uint8Array): StatementRow[] {
    if (this.info.encoding === null) {
      const head = new Uint8Array(this.head.length + chunk.length);
      head.set(this.head);
      head.set(chunk, this.head.length);
      if (head.length < 8) {
        this.head = head;
        return [];
      }
      this.head = new Uint8Array(0);
      this.start(head);
      return this.text(this.decoder.push(head), false);
    }
    return this.text(this.decoder.push(chunk), false);
  }

  end(): StatementRow[] {
    if (this.info.encoding === null) this.start(this.head);
    const rows = this.text(this.decoder.end(), true);
    this.info.encoding = this.decoder.encoding;
    if (this.whole) return this.readWhole(this.whole.join(''));
    if (!this.table) throw new StatementFileError('The file is empty.', 'EMPTY_FILE');
    rows.push(...this.table.push(this.delimited!.end()));
    this.table.end();
    this.info.skippedLines = this.table.info.skippedLines;
    return rows;
  }

  private start(head: Uint8Array): void {
    if (sniffFileKind(head) === 'xlsx') {
      throw new StatementFileError(
        'An .xlsx workbook is read by the xlsx adapter, not as text.',
        'UNSUPPORTED_FORMAT',
      );
    }
    this.info.encoding = 'utf-8';
  }

  private text(text: string, final: boolean): StatementRow[] {
    if (this.info.format === null) {
      this.pending += text;
      if (this.pending.length < SNIFF_CHARS && !final) return [];
      if (this.pending.trim() === '') throw new StatementFileError('The file is empty.', 'EMPTY_FILE');
      const format = sniffTextFormat(this.pending);
      if (format === 'html') {
        throw new StatementFileError(
          `This is a web page saved with a spreadsheet name. ${SAVE_AS_XLSX_OR_CSV}.`,
          'UNSUPPORTED_FORMAT',
        );
      }
      this.info.format = format;
      text = this.pending;
      this.pending = '';
      if (format === 'ofx' || format === 'qif') this.whole = [];
      else {
        this.delimited = new DelimitedReader(format === 'tsv' ? '\t' : ',');
        this.table = new StatementTableParser(this.options, this.info);
      }
    }
    if (this.whole) {
      this.whole.push(text);
      return [];
    }
    return this.table!.push(this.delimited!.push(text));
  }

  private readWhole(text: string): StatementRow[] {
    if (this.info.format === 'qif') return parseQif(text);
    const ofx = parseOfx(text);
    this.info.ledgerBalance = ofx.ledgerBalance;
    return ofx.rows;
  }
}

/**
 * The tabular half of the parser, for rows that already arrive as cells (CSV, TSV, and the
 * xlsx adapter's sheet rows): finds the header, then yields StatementRows.
 */
export class StatementTableParser {
  private readonly reader: TableReader;

  constructor(
    options: TableOptions = {},
    readonly info: StatementInfo = {
      format: 'xlsx',
      encoding: null,
      preset: null,
      mapping: null,
      mappingSource: null,
      header: null,
      headerLine: null,
      skippedLines: 0,
      ledgerBalance: null,
    },
  ) {
    this.reader = new TableReader(options);
  }

  push(rows: Iterable<CellRow>): StatementRow[] {
    const out: StatementRow[] = [];
    for (const row of rows) {
      const read = this.reader.push(row);
      if (read) out.push(read);
    }
    const header = this.reader.header;
    if (header && this.info.headerLine === null) {
      this.info.preset = header.preset;
      this.info.mapping = header.mapping;
      this.info.mappingSource = header.source;
      this.info.header = { cells: header.cells, key: headerShapeKey(header.cells) };
      this.info.headerLine = header.line;
    }
    this.info.skippedLines = this.reader.skippedLines;
    return out;
  }

  end(): void {
    this.reader.end();
  }
}

export type ParsedStatement = { info: StatementInfo; rows: StatementRow[] };

/** Reads a whole statement held in memory. */
export function parseStatement(bytes: Uint8Array, options: TableOptions = {}): ParsedStatement {
  const parser = new StatementParser(options);
  const rows = [...parser.push(bytes), ...parser.end()];
  return { info: parser.info, rows };
}

/**
 * Reads a statement as its chunks arrive (an upload stream), yielding rows in file order and
 * holding no more than a chunk and a line; `parser.info` is complete when the iteration ends.
 */
export async function* streamStatementRows(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  parser: StatementParser,
): AsyncGenerator<StatementRow> {
  for await (const chunk of chunks) yield* parser.push(chunk);
  yield* parser.end();
}
