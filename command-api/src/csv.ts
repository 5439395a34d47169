/**
 * CSV that opens cleanly in Excel and LibreOffice: UTF-8 with a byte-order mark (without it
 * Excel reads UTF-8 as the ANSI code page and ₹ turns into mojibake), CRLF line ends, fields
 * quoted when they hold a comma, quote or line break. Text that a spreadsheet would run as a
 * formula (=, +, -, @ first) gets a leading apostrophe; numbers (rupees) are written with two
 * decimals and no grouping, so a spreadsheet reads them as numbers.
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

/** YYYY-MM-DD → DD/MM/YYYY, the order Indian statements and an en-IN spreadsheet read. */
export const indianDate = (iso: string): string =>
  `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
