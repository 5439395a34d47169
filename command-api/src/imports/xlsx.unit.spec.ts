import { readFileSync } from 'node:fs';
import { StatementFileError } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { readXlsxStatement } from './xlsx';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../../domain/src/statement/fixtures/${name}`, import.meta.url)));

describe('an .xlsx statement', () => {
  it('goes through the same presets as CSV: preamble and trailer skipped, date cells and text dates, exact paise', async () => {
    const { info, rows } = await readXlsxStatement(fixture('hdfc.xlsx'));
    expect(info).toMatchObject({ format: 'xlsx', headerLine: 4 });
    expect(info.preset?.id).toBe('hdfc');
    expect(rows.map((row) => [row.line, row.date, row.amount, row.balance])).toEqual([
      [5, '2024-04-01', 8_500_000, 13_500_000],
      [6, '2024-04-03', -45_010, 13_454_990],
      [7, '2024-04-08', -2000, 13_452_990],
    ]);
  });

  it('a ZIP that is not a workbook, or a truncated one, is a clear 422', async () => {
    const truncated = fixture('hdfc.xlsx').subarray(0, 300);
    await expect(readXlsxStatement(truncated)).rejects.toBeInstanceOf(StatementFileError);
    await expect(readXlsxStatement(truncated)).rejects.toThrow(
      'The workbook cannot be read. Save the statement as .xlsx or CSV.',
    );
  });

  it('a workbook that would unpack to more than 100 MB is refused before it is inflated', async () => {
    const zip = new Uint8Array(4 + 46 + 22);
    const view = new DataView(zip.buffer);
    zip.set([0x50, 0x4b, 0x03, 0x04]);
    view.setUint32(4, 0x02014b50, true);
    view.setUint32(4 + 24, 200 * 1024 * 1024, true);
    view.setUint32(50, 0x06054b50, true);
    view.setUint16(50 + 10, 1, true);
    view.setUint32(50 + 16, 4, true);
    await expect(readXlsxStatement(zip)).rejects.toThrow(
      'The workbook unpacks to more than 100 MB; save the statement as CSV.',
    );
  });
});
