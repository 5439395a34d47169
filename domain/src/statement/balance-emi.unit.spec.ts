import { describe, expect, it } from 'vitest';
import { checkRunningBalance } from './balance';
import { type EmiDue, matchEmi } from './emi';
import { previewStatement } from './preview';
import { parseFixture } from './testing/fixtures';

describe("the statement's own running balance", () => {
  it('a dropped row shows as the first row that differs, with the amount', () => {
    const { rows } = parseFixture('axis-balance-mismatch.csv');
    const check = checkRunningBalance(rows, 5_000_000);
    expect(check).toMatchObject({
      status: 'mismatch',
      checkedRows: 3,
      firstMismatch: { index: 2, line: 4, expected: 12_250_000, stated: 12_000_000, difference: -250_000 },
    });
    expect(check.firstMismatch!.message).toBe(
      'The file states a balance of ₹1,20,000.00 after line 4; the running balance is ₹1,22,500.00 (a difference of -₹2,500.00)',
    );
  });

  it("an account balance that is not the file's opening balance differs on the first row", () => {
    const { rows } = parseFixture('hdfc.csv');
    expect(checkRunningBalance(rows, 4_000_000).firstMismatch).toMatchObject({
      line: 9,
      difference: 1_000_000,
    });
  });

  it('a file listed newest first is followed oldest first', () => {
    const { rows } = parseFixture('hdfc.csv');
    const reversed = [...rows].reverse();
    expect(checkRunningBalance(reversed, 5_000_000)).toMatchObject({ status: 'ok', checkedRows: 7 });
  });

  it('a file without balances says so; the preview carries the check', () => {
    expect(checkRunningBalance(parseFixture('statement.qif').rows, 0)).toEqual({
      status: 'no-balance',
      checkedRows: 0,
      firstMismatch: null,
    });
    const { rows } = parseFixture('axis-balance-mismatch.csv');
    expect(previewStatement({ rows, knownFingerprints: new Set() }).balance.status).toBe('mismatch');
  });
});

describe('EMIs found in the statement', () => {
  const bajaj: EmiDue = {
    loanId: 'loan-1',
    emiNumber: 7,
    accountNumber: 'BFL4020012345',
    lenderName: 'Bajaj Finance Limited',
    dueDate: '2024-04-05',
    amount: 1_234_500,
  };
  const { rows } = parseFixture('hdfc.csv');
  const ach = rows.find((row) => row.narration.startsWith('ACH D-'))!;

  it('a debit of the EMI amount on the due date, naming the lender, ACH and the loan account, matches', () => {
    expect(matchEmi(ach, [bajaj], new Set())).toEqual({
      emi: bajaj,
      reason:
        'EMI 7 due 05 Apr 2024 (₹12,345.00): same amount, on the due date, the narration names loan account BFL4020012345, the narration names Bajaj Finance Limited, the narration says ACH',
    });
  });

  it('the same amount 20 days off matches only when the narration names the loan, lender, ACH/NACH or EMI', () => {
    const late = { ...ach, date: '2024-04-25', narration: 'ACH D- SOMEONE-1' };
    expect(matchEmi(late, [bajaj], new Set())?.reason).toBe(
      'EMI 7 due 05 Apr 2024 (₹12,345.00): same amount, the narration says ACH',
    );
    expect(matchEmi({ ...late, narration: 'POS 4123 GROCER' }, [bajaj], new Set())).toBeNull();
    expect(
      matchEmi({ ...late, narration: 'POS 4123 GROCER', date: '2024-04-09' }, [bajaj], new Set())?.reason,
    ).toBe('EMI 7 due 05 Apr 2024 (₹12,345.00): same amount, 4 days from the due date');
  });

  it('a different amount, a credit, or an EMI already matched does not match', () => {
    expect(matchEmi({ ...ach, amount: -1_234_400 }, [bajaj], new Set())).toBeNull();
    expect(matchEmi({ ...ach, amount: 1_234_500 }, [bajaj], new Set())).toBeNull();
    expect(matchEmi(ach, [bajaj], new Set(['loan-1#7']))).toBeNull();
  });

  it('the preview marks the row emi-match; with two candidates the one with more evidence wins', () => {
    const other: EmiDue = {
      ...bajaj,
      loanId: 'loan-2',
      accountNumber: null,
      lenderName: 'SBI',
      dueDate: '2024-04-06',
    };
    const preview = previewStatement({ rows, knownFingerprints: new Set(), emisDue: [other, bajaj] });
    const row = preview.rows.find((candidate) => candidate.index === ach.index)!;
    expect(row).toMatchObject({ status: 'emi-match', emi: bajaj });
    expect(preview.counts['emi-match']).toBe(1);
  });
});
