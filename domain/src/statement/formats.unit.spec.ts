import { describe, expect, it } from 'vitest';
import { parseStatementAmount } from './amount';
import { parseStatementDate } from './dates';
import { decodeStatementBytes, StatementDecoder } from './decode';
import { DelimitedReader } from './delimited';
import { parseStatement, StatementParser, streamStatementRows } from './parser';
import { fixture, parseFixture } from './testing/fixtures';

describe('amounts', () => {
  it.each([
    ['1,23,456.78', 12_345_678, null],
    ['123,456.78', 12_345_678, null],
    ['123456.78', 12_345_678, null],
    ['1,00,000.00', 10_000_000, null],
    ['₹ 1,234.50', 123_450, null],
    ['INR 20', 2000, null],
    ['Rs.450.00', 45_000, null],
    ['Rs 450.00', 45_000, null],
    ['1,234.00 Dr', 123_400, 'dr'],
    ['1,234.00Cr', 123_400, 'cr'],
    ['-20.00', -2000, null],
    ['(20.00)', -2000, null],
    ['₹-20.00', -2000, null],
  ])('reads %s as %i paise', (text, paise, side) => {
    expect(parseStatementAmount(text)).toEqual({ paise, side });
  });

  it('an empty cell is no amount; text, broken grouping and two decimal points are refused', () => {
    expect(parseStatementAmount('  ')).toBeNull();
    expect(parseStatementAmount('-')).toBeNull();
    for (const text of ['abc', '1,2,3', '12,34', '1.2.3', 'Dr', '₹']) {
      expect(() => parseStatementAmount(text)).toThrow(`"${text}" is not an amount`);
    }
  });
});

describe('dates are day first only', () => {
  it.each([
    ['03/04/24', '2024-04-03'],
    ['03/04/2024', '2024-04-03'],
    ['03-04-2024', '2024-04-03'],
    ['3-Apr-24', '2024-04-03'],
    ['03 Apr 2024', '2024-04-03'],
    ['3 April 2024', '2024-04-03'],
    ['03.04.2024', '2024-04-03'],
    ["3/4'24", '2024-04-03'],
    ['03/04/2024 10:15:01', '2024-04-03'],
    ['2024-04-03', '2024-04-03'],
    ['29/02/2024', '2024-02-29'],
  ])('%s is %s', (text, date) => {
    expect(parseStatementDate(text)).toBe(date);
  });

  it.each(['04/25/2024', 'Apr 25, 2024', '31/04/2024', '29/02/2023', '3 Aprx 2024', '', 'Opening Balance'])(
    '%s is not read',
    (text) => {
      expect(parseStatementDate(text)).toBeNull();
    },
  );
});

describe('decoding', () => {
  it('drops a UTF-8 byte-order mark and reads Windows-1252 when the bytes are not UTF-8', () => {
    expect(decodeStatementBytes(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toEqual({
      text: 'A',
      encoding: 'utf-8',
    });
    expect(decodeStatementBytes(new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x80]))).toEqual({
      text: 'Café€',
      encoding: 'windows-1252',
    });
  });

  it('keeps a UTF-8 character split across two chunks, and a Windows-1252 byte at a chunk end', () => {
    const rupee = new TextEncoder().encode('₹5');
    const utf8 = new StatementDecoder();
    expect(utf8.push(rupee.subarray(0, 2)) + utf8.push(rupee.subarray(2)) + utf8.end()).toBe('₹5');
    const cp1252 = new StatementDecoder();
    const text =
      cp1252.push(new Uint8Array([0x41, 0xe2])) + cp1252.push(new Uint8Array([0x41, 0x0a])) + cp1252.end();
    expect(text).toBe('AâA\n');
    expect(cp1252.encoding).toBe('windows-1252');
  });

  it('refuses a file that mixes UTF-8 text and Windows-1252 bytes', () => {
    const decoder = new StatementDecoder();
    decoder.push(new TextEncoder().encode('₹ '));
    expect(() => decoder.push(new Uint8Array([0xe9, 0x20]))).toThrow(/mixes UTF-8 and Windows-1252/);
  });
});

describe('comma- and tab-separated text', () => {
  it('quoted fields hold delimiters, doubled quotes and line breaks; lines are counted across them', () => {
    const reader = new DelimitedReader(',');
    const rows = [...reader.push('a,"b, ""c""\r\nd",e\r\nf,g,h'), ...reader.end()];
    expect(rows).toEqual([
      { cells: ['a', 'b, "c"\r\nd', 'e'], line: 1 },
      { cells: ['f', 'g', 'h'], line: 3 },
    ]);
  });

  it('reads the same rows whatever the chunk size', () => {
    const bytes = fixture('hdfc.csv');
    const whole = parseStatement(bytes).rows;
    for (const size of [1, 7, 64]) {
      const parser = new StatementParser();
      const rows = [];
      for (let at = 0; at < bytes.length; at += size)
        rows.push(...parser.push(bytes.subarray(at, at + size)));
      rows.push(...parser.end());
      expect(rows).toEqual(whole);
      expect(parser.info.preset?.id).toBe('hdfc');
    }
  });

  it('streams rows from an async iterable of chunks', async () => {
    const bytes = fixture('kotak.csv');
    async function* chunks() {
      yield bytes.subarray(0, 100);
      yield bytes.subarray(100);
    }
    const parser = new StatementParser();
    const rows = [];
    for await (const row of streamStatementRows(chunks(), parser)) rows.push(row);
    expect(rows.map((row) => row.amount)).toEqual([2_500_000, -3_100_000, 5_000_000]);
    expect(parser.info).toMatchObject({ format: 'csv', encoding: 'utf-8', headerLine: 3, skippedLines: 3 });
  });
});

describe('OFX and QFX', () => {
  it('SGML OFX 1.x: STMTTRN with FITID, DTPOSTED, TRNAMT, NAME and MEMO; LEDGERBAL', () => {
    const { info, rows } = parseFixture('statement.ofx');
    expect(info.format).toBe('ofx');
    expect(info.ledgerBalance).toEqual({ amount: 9_451_000, date: '2024-04-30' });
    expect(
      rows.map((row) => [row.date, row.amount, row.reference, row.referenceKind, row.narration]),
    ).toEqual([
      ['2024-04-03', -45_000, 'HDFC202404030001', 'fitid', 'SWIGGY UPI-527411112222'],
      ['2024-04-10', -2000, 'HDFC202404100001', 'fitid', 'CHAI POINT UPI tea'],
      ['2024-04-10', -2000, 'HDFC202404100002', 'fitid', 'CHAI POINT UPI tea'],
      ['2024-04-25', 8_500_000, 'HDFC202404250001', 'fitid', 'ACME SOFTWARE PVT LTD NEFT salary & bonus'],
    ]);
    expect(rows[0]!.line).toBe(17);
  });

  it('XML QFX (OFX 2.x) of a credit card', () => {
    const { info, rows } = parseFixture('statement.qfx');
    expect(info.format).toBe('ofx');
    expect(info.ledgerBalance).toEqual({ amount: 0, date: '2024-04-30' });
    expect(rows.map((row) => [row.date, row.amount, row.reference])).toEqual([
      ['2024-04-12', -249_900, 'CC-20240412-7781'],
      ['2024-04-20', 249_900, 'CC-20240420-0012'],
    ]);
  });

  it('a transaction without a date or amount is an error row naming its line; an unclosed one refuses the file', () => {
    const text =
      '<OFX>\n<STMTTRN>\n<DTPOSTED>2024\n<TRNAMT>-1\n<FITID>1\n</STMTTRN>\n<STMTTRN><DTPOSTED>20240401<TRNAMT>x</STMTTRN>\n</OFX>';
    const { rows } = parseStatement(new TextEncoder().encode(text));
    expect(rows.map((row) => row.error?.message)).toEqual([
      'Line 2: DTPOSTED "2024" is not a date',
      'Line 7: TRNAMT "x" is not an amount',
    ]);
    expect(() => parseStatement(new TextEncoder().encode('<OFX>\n<STMTTRN>\n<TRNAMT>1\n</OFX>'))).toThrow(
      'The transaction that starts at line 2 is never closed (</STMTTRN>).',
    );
  });
});

describe('QIF', () => {
  it('reads D, T/U, P, M and N records ended by ^', () => {
    const { info, rows } = parseFixture('statement.qif');
    expect(info.format).toBe('qif');
    expect(rows.map((row) => [row.line, row.date, row.amount, row.narration, row.reference])).toEqual([
      [2, '2024-04-01', 8_500_000, 'ACME SOFTWARE PVT LTD NEFT salary', '000123'],
      [8, '2024-04-10', -2000, 'CHAI POINT tea', null],
      [14, '2024-04-10', -2000, 'CHAI POINT tea', null],
    ]);
  });

  it('a month-first date is an error row, a record without ^ refuses the file', () => {
    const { rows } = parseStatement(new TextEncoder().encode('!Type:Bank\nD04/25/2024\nT-1.00\n^\n'));
    expect(rows[0]!.error?.message).toBe('Line 2: D "04/25/2024" is not a day-first date');
    expect(() => parseStatement(new TextEncoder().encode('!Type:Bank\nD01/04/2024\nT-1.00\n'))).toThrow(
      'The record that starts at line 2 is not ended by a "^" line.',
    );
  });
});
