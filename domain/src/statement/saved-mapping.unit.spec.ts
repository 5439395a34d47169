import { describe, expect, it } from 'vitest';
import { headerShapeKey } from './mapping';
import { parseStatement } from './parser';

const text = (s: string) => new TextEncoder().encode(s);
const mapping = { date: 'Txn Dt', narration: 'Particulars', amount: 'Amount', drCr: 'Type' };
const saved = [{ headerKey: 'txndt|particulars|amount|type', mapping }];

describe("an account's saved column mapping", () => {
  it('keys a header by its cells as compared, trailing empty cells dropped', () => {
    expect(headerShapeKey(['Txn Dt', 'Particulars', 'Amount', 'Type', '', ''])).toBe(saved[0]?.headerKey);
  });

  it('reads a file whose header has exactly that shape, and says the mapping was the saved one', () => {
    const { info, rows } = parseStatement(
      text('Txn Dt,Particulars,Amount,Type,\r\n05/03/2025,Tea,30.00,DR,\r\n'),
      {
        saved,
      },
    );
    expect(info).toMatchObject({ mappingSource: 'saved', preset: null, headerLine: 1 });
    expect(info.header?.key).toBe(saved[0]?.headerKey);
    expect(rows.map((r) => [r.date, r.amount])).toEqual([['2025-03-05', -3000]]);
  });

  it('is not used for a header of another shape, even one holding its columns', () => {
    expect(() =>
      parseStatement(text('Txn Dt,Particulars,Amount,Type,Branch\r\n05/03/2025,Tea,30.00,DR,Pune\r\n'), {
        saved,
      }),
    ).toThrow(/No header row/);
  });

  it('gives way to a preset asked for, and names a preset layout as a preset', () => {
    const hdfc =
      'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance\r\n01/03/25,Tea,1,01/03/25,30.00,,970.00\r\n';
    expect(parseStatement(text(hdfc), { saved }).info).toMatchObject({
      mappingSource: 'preset',
      preset: { id: 'hdfc' },
    });
    expect(
      parseStatement(text(hdfc), {
        mapping: { date: 'Date', narration: 'Narration', debit: 'Withdrawal Amt.' },
      }).info.mappingSource,
    ).toBe('custom');
  });
});
