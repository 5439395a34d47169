import {
  type CellRow,
  type ParsedStatement,
  SAVE_AS_XLSX_OR_CSV,
  StatementFileError,
  StatementTableParser,
  type TableOptions,
} from '@kosh/domain';
import { readSheet } from 'read-excel-file/node';

/**
 * A workbook's cells, once inflated, may be at most this large. An upload is capped at 10 MB,
 * but ZIP compresses a sheet of repeated cells a thousandfold: the central directory is read
 * first so that a "zip bomb" is refused before anything is inflated.
 */
const MAX_INFLATED_BYTES = 100 * 1024 * 1024;

/** Sum of the uncompressed sizes a ZIP's central directory declares; null when it cannot be read. */
function declaredInflatedSize(zip: Uint8Array): number | null {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let end = zip.length - 22; end >= Math.max(0, zip.length - 65_557); end--) {
    if (view.getUint32(end, true) !== 0x06054b50) continue;
    const entries = view.getUint16(end + 10, true);
    let offset = view.getUint32(end + 16, true);
    let total = 0;
    for (let i = 0; i < entries; i++) {
      if (offset + 46 > zip.length || view.getUint32(offset, true) !== 0x02014b50) return null;
      const size = view.getUint32(offset + 24, true);
      if (size === 0xffffffff) return null;
      total += size;
      offset +=
        46 +
        view.getUint16(offset + 28, true) +
        view.getUint16(offset + 30, true) +
        view.getUint16(offset + 32, true);
    }
    return total;
  }
  return null;
}

/** A cell as statement text: numbers keep the decimal digits the sheet stores, dates become YYYY-MM-DD. */
function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  return String(cell);
}

/**
 * Reads the first sheet of an `.xlsx` statement (read-excel-file: maintained, reads the XML
 * parts itself, never evaluates formulas) and feeds its rows to the domain's table parser, so a
 * workbook goes through the same presets, mapping and row checks as a CSV. Numbers are taken as
 * the decimal text stored in the sheet, never as floats. Row numbers of the sheet are the
 * "lines" that errors name.
 */
export async function readXlsxStatement(
  bytes: Uint8Array,
  options: TableOptions = {},
): Promise<ParsedStatement> {
  const inflated = declaredInflatedSize(bytes);
  if (inflated === null || inflated > MAX_INFLATED_BYTES) {
    throw new StatementFileError(
      inflated === null
        ? `The workbook cannot be read. ${SAVE_AS_XLSX_OR_CSV}.`
        : 'The workbook unpacks to more than 100 MB; save the statement as CSV.',
      'UNSUPPORTED_FORMAT',
    );
  }
  let sheet: unknown[][];
  try {
    sheet = await readSheet(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      parseNumber: (text: string) => text,
    });
  } catch {
    throw new StatementFileError(
      `The workbook cannot be read. ${SAVE_AS_XLSX_OR_CSV}.`,
      'UNSUPPORTED_FORMAT',
    );
  }
  const parser = new StatementTableParser(options);
  const rows = parser.push(sheet.map((cells, i): CellRow => ({ cells: cells.map(cellText), line: i + 1 })));
  parser.end();
  return { info: parser.info, rows };
}
