import { describe, expect, it } from 'vitest';
import { StatementFileError } from './errors';
import { parseStatement } from './parser';
import { SAVE_AS_XLSX_OR_CSV, sniffFileKind } from './sniff';
import { fixture, parseFixture } from './testing/fixtures';

function refusal(run: () => unknown): StatementFileError {
  try {
    run();
  } catch (error) {
    if (error instanceof StatementFileError) return error;
    throw error;
  }
  throw new Error('the file was accepted');
}

describe('files that cannot be read are refused with a clear 422 naming where', () => {
  it('a 0-byte file', () => {
    const error = refusal(() => parseFixture('empty.csv'));
    expect(error).toMatchObject({ code: 'EMPTY_FILE', errorCode: 'VALIDATION_ERROR' });
    expect(error.errors).toEqual([{ field: 'file', message: 'The file is empty.' }]);
  });

  it('a file of blank lines', () => {
    expect(refusal(() => parseStatement(new TextEncoder().encode('\r\n \r\n\t\r\n'))).code).toBe(
      'EMPTY_FILE',
    );
  });

  it('binary data', () => {
    const error = refusal(() => parseFixture('binary.csv'));
    expect(error.code).toBe('BINARY_FILE');
    expect(error.message).toContain(SAVE_AS_XLSX_OR_CSV);
  });

  it('a binary Excel 97-2003 .xls (no maintained library reads it safely)', () => {
    const error = refusal(() => parseFixture('legacy-biff.xls'));
    expect(error).toMatchObject({ code: 'UNSUPPORTED_FORMAT' });
    expect(error.message).toBe(
      'This is a binary Excel 97-2003 (.xls) file. Save the statement as .xlsx or CSV.',
    );
  });

  it('a PDF and a web page saved as .xls', () => {
    expect(refusal(() => parseStatement(new TextEncoder().encode('%PDF-1.7\n...'))).code).toBe(
      'UNSUPPORTED_FORMAT',
    );
    const html = new TextEncoder().encode('<html><body><table><tr><td>Date</td></tr></table></body></html>');
    expect(refusal(() => parseStatement(html)).code).toBe('UNSUPPORTED_FORMAT');
  });

  it('an .xlsx workbook is recognised by its bytes (a ZIP), for the xlsx adapter', () => {
    expect(sniffFileKind(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]))).toBe('xlsx');
    expect(refusal(() => parseStatement(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]))).code).toBe(
      'UNSUPPORTED_FORMAT',
    );
  });

  it('a CSV with a broken quote names the line and column where the quote opened', () => {
    const error = refusal(() => parseFixture('broken-quote.csv'));
    expect(error).toMatchObject({ code: 'BROKEN_QUOTE', line: 3, column: 10 });
    expect(error.message).toBe(
      'The quote opened at line 3, column 10 is broken: it closes before the text at line 3, column 105.',
    );
  });

  it('a quote still open at the end of the file names where it opened', () => {
    const text =
      'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance\n01/04/24,"Tea,,,20.00,,\n';
    const error = refusal(() => parseStatement(new TextEncoder().encode(text)));
    expect(error).toMatchObject({ code: 'BROKEN_QUOTE', line: 2, column: 10 });
    expect(error.message).toBe('The quote opened at line 2, column 10 is never closed.');
  });

  it('a quote that runs on for more than 50 lines is broken, without holding the rest of the file', () => {
    const rows = Array.from({ length: 80 }, (_, i) => `0${(i % 9) + 1}/04/24,Tea,,,20.00,,`).join('\n');
    const text = `Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance\n01/04/24,"Tea\n${rows}\n`;
    expect(refusal(() => parseStatement(new TextEncoder().encode(text)))).toMatchObject({
      line: 2,
      column: 10,
    });
  });

  it('a file without any header row we know asks for a mapping', () => {
    const text = 'Some bank\nWhen,What,How much\n01/04/2024,Tea,20.00\n';
    const error = refusal(() => parseStatement(new TextEncoder().encode(text)));
    expect(error.code).toBe('NO_HEADER');
    expect(error.message).toContain('Choose the columns yourself.');
  });
});

describe('rows the mapping cannot read are errors naming line and column, and nothing is guessed', () => {
  it('month-first dates (04/25/2024, "Apr 26, 2024") are never read', () => {
    const { rows } = parseFixture('month-first.csv');
    expect(rows.map((row) => row.kind)).toEqual(['error', 'error']);
    expect(rows[0]!.error).toEqual({
      line: 2,
      column: 1,
      message:
        'Line 2, column 1 (Date): "04/25/2024" is not a day-first date (dd/mm/yy, dd-mm-yyyy, dd Mon yyyy, …)',
    });
    expect(rows[1]!.error).toMatchObject({ line: 3, column: 1 });
  });

  it('an amount that is not one', () => {
    const text =
      'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance\n01/04/24,Tea,,01/04/24,20.0O,,100.00\n';
    const { rows } = parseStatement(new TextEncoder().encode(text));
    expect(rows[0]!.error).toEqual({
      line: 2,
      column: 5,
      message: 'Line 2, column 5 (Withdrawal Amt.): "20.0O" is not an amount',
    });
  });

  it('a row with both a withdrawal and a deposit, and a row with no amount', () => {
    const text =
      'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance\n01/04/24,Tea,,,20.00,30.00,\n02/04/24,Tea,,,,,\n';
    const { rows } = parseStatement(new TextEncoder().encode(text));
    expect(rows.map((row) => row.error?.message)).toEqual([
      'Line 2, column 6 (Deposit Amt.): The row has both a withdrawal and a deposit',
      'Line 3, column 5 (Withdrawal Amt.): The row has no amount',
    ]);
  });

  it('a Dr / Cr cell that is neither', () => {
    const text =
      'Sl. No.,Transaction Date,Value Date,Description,Chq / Ref No.,Amount,Dr / Cr,Balance,Dr / Cr\n1,01-04-2024,,X,,5.00,XX,,\n';
    const { rows } = parseStatement(new TextEncoder().encode(text));
    expect(rows[0]!.error?.message).toBe('Line 2, column 7 (Dr / Cr): "XX" is neither Dr nor Cr');
  });
});

describe('fixture bytes', () => {
  it('are what the tests say they are', () => {
    expect(fixture('hdfc.csv').subarray(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    expect(fixture('empty.csv')).toHaveLength(0);
  });
});
