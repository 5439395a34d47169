import { describe, expect, it } from 'vitest';
import { fileNamePart, toCsv } from './csv';

describe('CSV for spreadsheets', () => {
  it('starts with a BOM, ends lines with CRLF and quotes commas, quotes and line breaks', () => {
    const csv = toCsv(
      ['Notes', 'Amount'],
      [
        ['Rent, March', 1500],
        ['He said "paid"', 0.5],
        ['two\nlines', null],
        ['₹ plain', -12.5],
      ],
    );
    expect(csv).toBe(
      '\uFEFFNotes,Amount\r\n"Rent, March",1500.00\r\n"He said ""paid""",0.50\r\n"two\nlines",\r\n₹ plain,-12.50\r\n',
    );
  });

  it('keeps text a spreadsheet would run as a formula as text, and numbers as numbers', () => {
    const csv = toCsv(['x'], [['=1+1'], ['+91 98'], ['-5 off'], ['@SUM(A1)'], ['\tTab'], ['a=b'], [-3]]);
    expect(csv.split('\r\n').slice(1, -1)).toEqual([
      "'=1+1",
      "'+91 98",
      "'-5 off",
      "'@SUM(A1)",
      "'\tTab",
      'a=b',
      '-3.00',
    ]);
  });

  it('makes safe file names', () => {
    expect(fileNamePart('Savings "Main", Pune')).toBe('Savings-Main-Pune');
    expect(fileNamePart('../../etc')).toBe('etc');
    expect(fileNamePart('रुपया')).toBe('export');
  });
});
