import { describe, expect, it } from 'vitest';
import { classifyDuplicates, fingerprintKeys } from './fingerprint';
import { previewStatement } from './preview';
import type { StatementRow } from './row';
import { parseFixture } from './testing/fixtures';

/** The keys an account holds after importing every transaction of `rows`. */
function imported(rows: readonly StatementRow[]): Set<string> {
  return new Set(
    classifyDuplicates(rows, new Set()).flatMap((verdict) =>
      verdict ? fingerprintKeys(verdict.fingerprint) : [],
    ),
  );
}

describe('duplicates are never wrong', () => {
  it('two genuine identical rows in one statement (two ₹20 teas on one day) both import', () => {
    const { rows } = parseFixture('hdfc.csv');
    const preview = previewStatement({ rows, knownFingerprints: new Set() });
    const teas = preview.rows.filter((row) => row.date === '2024-04-10');
    expect(teas.map((row) => row.status)).toEqual(['new', 'new']);
    expect(teas[0]!.fingerprints[0]).not.toBe(teas[1]!.fingerprints[0]);
    expect(preview.counts).toMatchObject({ new: 7, duplicate: 0 });
  });

  it('the same file imported again adds nothing', () => {
    const { rows } = parseFixture('hdfc.csv');
    const preview = previewStatement({ rows, knownFingerprints: imported(rows) });
    expect(preview.counts).toMatchObject({ new: 0, duplicate: 7 });
  });

  it('an overlapping period: only the rows after the overlap are new, both teas of the overlap are duplicates', () => {
    const first = parseFixture('hdfc-1-15-april.csv').rows;
    const second = parseFixture('hdfc-10-30-april.csv').rows;
    const preview = previewStatement({ rows: second, knownFingerprints: imported(first) });
    expect(preview.rows.map((row) => [row.date, row.status])).toEqual([
      ['2024-04-10', 'duplicate'],
      ['2024-04-10', 'duplicate'],
      ['2024-04-14', 'duplicate'],
      ['2024-04-20', 'new'],
      ['2024-04-25', 'new'],
    ]);
    expect(preview.rows[0]!.reason).toBe(
      'This row (same date, amount, narration and place among identical rows) was imported before',
    );
  });

  it('a third identical tea on the overlapping day is new', () => {
    const first = parseFixture('hdfc-1-15-april.csv').rows;
    const second = parseFixture('hdfc-10-30-april.csv').rows;
    const third = { ...second[1]!, index: 99, line: 99 };
    const preview = previewStatement({
      rows: [second[0]!, second[1]!, third],
      knownFingerprints: imported(first),
    });
    expect(preview.rows.map((row) => row.status)).toEqual(['duplicate', 'duplicate', 'new']);
  });

  it('a re-imported OFX is recognised by FITID, and its two identical teas import the first time', () => {
    const { rows } = parseFixture('statement.ofx');
    expect(previewStatement({ rows, knownFingerprints: new Set() }).counts.new).toBe(4);
    const again = previewStatement({ rows, knownFingerprints: imported(rows) });
    expect(again.counts).toMatchObject({ new: 0, duplicate: 4 });
    expect(again.rows[0]!.reason).toBe('FITID HDFC202404030001 was imported before');
  });

  it('an OFX row whose FITID is new is new even when its text repeats an earlier import', () => {
    const { rows } = parseFixture('statement.ofx');
    const renumbered = rows.map((row) => ({ ...row, reference: `${row.reference}-X` }));
    expect(previewStatement({ rows: renumbered, knownFingerprints: imported(rows) }).counts.new).toBe(4);
  });

  it('the same FITID twice in one file imports once', () => {
    const { rows } = parseFixture('statement.ofx');
    const preview = previewStatement({
      rows: [rows[0]!, { ...rows[0]!, index: 1 }],
      knownFingerprints: new Set(),
    });
    expect(preview.rows.map((row) => [row.status, row.reason])).toEqual([
      ['new', 'Not in the account yet'],
      ['duplicate', 'FITID HDFC202404030001 appears earlier in this file'],
    ]);
  });

  it('QIF has no ids: a re-import is found by the occurrence fingerprint, its two teas both import', () => {
    const { rows } = parseFixture('statement.qif');
    expect(previewStatement({ rows, knownFingerprints: new Set() }).counts.new).toBe(3);
    expect(previewStatement({ rows, knownFingerprints: imported(rows) }).counts.duplicate).toBe(3);
  });

  it('a row of the same amount on another date is not "already imported" (no loose matching)', () => {
    const { rows } = parseFixture('hdfc-1-15-april.csv');
    const moved = rows.map((row) => ({ ...row, date: '2024-05-01' }));
    expect(previewStatement({ rows: moved, knownFingerprints: imported(rows) }).counts).toMatchObject({
      new: 4,
      duplicate: 0,
    });
  });
});

describe('a hand-entered transaction an imported row probably repeats', () => {
  const handEntered = [
    { id: 't1', date: '2024-04-04', amount: -45_000, text: 'Swiggy dinner' },
    { id: 't2', date: '2024-04-03', amount: -45_000, text: 'Books' },
    { id: 't3', date: '2024-04-10', amount: -500_000, text: 'Cash from ATM Bengaluru' },
  ];

  it('is a possible duplicate with its reason, never skipped; different text or > 3 days apart is not', () => {
    const { rows } = parseFixture('hdfc.csv');
    const preview = previewStatement({ rows, knownFingerprints: new Set(), handEntered });
    const swiggy = preview.rows.find((row) => row.date === '2024-04-03')!;
    expect(swiggy).toMatchObject({ status: 'possible-duplicate', possibleDuplicateOf: handEntered[0] });
    expect(swiggy.reason).toBe(
      'May repeat "Swiggy dinner" of 04 Apr 2024 entered by hand: same amount ₹450.00, 1 day apart, similar text',
    );
    const atm = preview.rows.find((row) => row.date === '2024-04-14')!;
    expect(atm.status).toBe('new');
    expect(preview.counts['possible-duplicate']).toBe(1);
  });

  it('one hand-entered transaction is offered against one imported row only', () => {
    const { rows } = parseFixture('hdfc.csv');
    const tea = [{ id: 'tea', date: '2024-04-10', amount: -2000, text: 'Chai Point tea' }];
    const preview = previewStatement({ rows, knownFingerprints: new Set(), handEntered: tea });
    expect(preview.rows.filter((row) => row.date === '2024-04-10').map((row) => row.status)).toEqual([
      'possible-duplicate',
      'new',
    ]);
  });
});
