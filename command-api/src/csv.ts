import type { FastifyReply } from 'fastify';

/**
 * CSV that opens cleanly in Excel and LibreOffice: UTF-8 with a byte-order mark (without it
 * Excel reads UTF-8 as the ANSI code page and ₹ turns into mojibake), CRLF line ends, fields
 * quoted when they hold a comma, quote or line break. Text that a spreadsheet would run as a
 * formula (=, +, -, @, tab or CR first) gets a leading apostrophe; numbers (rupees) are written
 * with two decimals and no grouping or ₹, so a spreadsheet reads them as numbers.
 *
 * Dates are written ISO (YYYY-MM-DD): Excel in any regional setting and LibreOffice read it as a
 * date, where DD/MM/YYYY is read month-first by a US-locale Excel (03/06/2025 becomes 6 March)
 * without a warning. The exports write business dates as they are stored.
 */
export type CsvCell = string | number | null;

const BOM = '\uFEFF';

function cell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return value.toFixed(2);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const lines = [header, ...rows].map((row) => row.map(cell).join(','));
  return `${BOM}${lines.join('\r\n')}\r\n`;
}

/** A name as a file name: ASCII letters, digits, dot and dash (the rest become dashes). */
export function fileNamePart(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9.-]+/g, '-')
      .replace(/^[-.]+|-+$/g, '')
      .slice(0, 80) || 'export'
  );
}

/** Sends a CSV as a download named `fileName` (already a safe file name). */
export function sendCsv(
  reply: FastifyReply,
  fileName: string,
  header: readonly string[],
  rows: readonly (readonly CsvCell[])[],
) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${fileName}"`)
    .header('Cache-Control', 'no-store')
    .send(toCsv(header, rows));
}
