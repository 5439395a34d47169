import { describe, expect, it } from 'vitest';
import { checkRunningBalance } from './balance';
import { parseFixture } from './testing/fixtures';

const transactions = (rows: ReturnType<typeof parseFixture>['rows']) =>
  rows.filter((row) => row.kind === 'transaction');

describe('the five layouts of the formats document', () => {
  it('HDFC: BOM, CRLF, preamble and trailer skipped, a multi-line quoted narration, two identical rows kept', () => {
    const { info, rows } = parseFixture('hdfc.csv');
    expect(info).toMatchObject({ format: 'csv', encoding: 'utf-8', headerLine: 8 });
    expect(info.preset?.id).toBe('hdfc');
    expect(rows.map((row) => row.kind)).toEqual(Array(7).fill('transaction'));
    expect(rows[0]).toMatchObject({
      line: 9,
      date: '2024-04-01',
      amount: 8_500_000,
      balance: 13_500_000,
      reference: 'YESBN12024040100001',
      referenceKind: 'bank-reference',
    });
    expect(rows[1]).toMatchObject({ date: '2024-04-03', amount: -45_000, reference: '0000527411112222' });
    expect(rows[2]).toMatchObject({ amount: -1_234_500, reference: null });
    expect(rows[3]).toMatchObject({ date: '2024-04-10', amount: -2000, balance: 12_218_500 });
    expect(rows[4]).toMatchObject({ date: '2024-04-10', amount: -2000, balance: 12_216_500 });
    expect(rows[5]).toMatchObject({
      line: 14,
      narration: 'POS 412345XXXXXX1234 BIG BAZAAR\r\nKORAMANGALA BLR',
    });
    expect(rows[6]).toMatchObject({ line: 16, date: '2024-04-14', amount: -500_000 });
    expect(checkRunningBalance(rows, 5_000_000)).toMatchObject({ status: 'ok', checkedRows: 7 });
  });

  it('ICICI: the opening-balance row is recognised, not a transaction; a repeated page header is skipped', () => {
    const { info, rows } = parseFixture('icici.csv');
    expect(info.preset?.id).toBe('icici');
    expect(rows[0]).toMatchObject({ kind: 'opening-balance', balance: 2_500_000, amount: 0 });
    expect(transactions(rows).map((row) => [row.date, row.amount, row.balance])).toEqual([
      ['2024-04-02', -45_000, 2_455_000],
      ['2024-04-05', -987_600, 1_467_400],
      ['2024-04-30', 12_300, 1_479_700],
    ]);
    expect(checkRunningBalance(rows, null)).toMatchObject({ status: 'ok', checkedRows: 3 });
  });

  it('SBI: a ".xls" that is really tab-separated Windows-1252 text, dd Mon yyyy and dd-Mon-yy dates', () => {
    const { info, rows } = parseFixture('sbi-text.xls');
    expect(info).toMatchObject({ format: 'tsv', encoding: 'windows-1252' });
    expect(info.preset?.id).toBe('sbi');
    expect(rows.map((row) => [row.date, row.amount, row.balance])).toEqual([
      ['2024-04-01', 1_500_000, 6_500_000],
      ['2024-04-03', -35_000, 6_465_000],
      ['2024-04-30', -1770, 6_463_230],
    ]);
    expect(rows[1]!.narration).toContain('Café Coffee Day');
  });

  it('Axis: Rs. prefixes and Indian grouping (1,00,000.00); an OPENING BALANCE row and the totals trailer', () => {
    const { info, rows } = parseFixture('axis.csv');
    expect(info.preset?.id).toBe('axis');
    expect(rows[0]).toMatchObject({ kind: 'opening-balance', date: '2024-04-01', balance: 5_000_000 });
    expect(transactions(rows).map((row) => row.amount)).toEqual([10_000_000, -2_000_000, -750_000]);
    expect(rows).toHaveLength(4);
    expect(checkRunningBalance(rows, 5_000_000).status).toBe('ok');
  });

  it('Kotak: one Amount column with a Dr / Cr column, and a balance with its own Dr / Cr', () => {
    const { info, rows } = parseFixture('kotak.csv');
    expect(info.preset?.id).toBe('kotak');
    expect(rows.map((row) => [row.amount, row.balance])).toEqual([
      [2_500_000, 3_000_000],
      [-3_100_000, -100_000],
      [5_000_000, 4_900_000],
    ]);
    expect(checkRunningBalance(rows, 500_000).status).toBe('ok');
  });

  it('a preset chosen by the user is the only layout looked for', () => {
    expect(() => parseFixture('kotak.csv', { preset: 'hdfc' })).toThrow(
      /No header row with the columns Date/,
    );
  });

  it("the user's own mapping reads a layout no preset knows", () => {
    const { info, rows } = parseFixture('kotak.csv', {
      mapping: { date: 'Value Date', narration: 'Description', amount: 'Amount', drCr: 'Dr / Cr' },
    });
    expect(info.preset).toBeNull();
    expect(rows.map((row) => [row.date, row.amount, row.balance])).toEqual([
      ['2024-04-01', 2_500_000, null],
      ['2024-04-03', -3_100_000, null],
      ['2024-04-05', 5_000_000, null],
    ]);
  });
});
