/** Test-only: one share of the oracle comparison, so the 10,000 loans run in parallel files. */
import { expect, it } from 'vitest';
import { compareWithOracle } from './compare';

/** Override to explore other loans; a failure names the loan index and this base seed. */
const BASE_SEED = Number(process.env.ORACLE_SEED ?? 20_261_127);

export function oracleShare(first: number, count: number): void {
  it(`loans ${first}–${first + count - 1} (base seed ${BASE_SEED}): every row, total, refusal and APR, and each payment history's EMI standings and certificate years, as the exact oracle has it`, () => {
    const report = compareWithOracle(BASE_SEED, first, count);
    expect(
      report.differences.slice(0, 5),
      `${report.differences.length} differences; reproduce one with compareWithOracle(${BASE_SEED}, index, 1)`,
    ).toEqual([]);
    expect(report.loans).toBe(count);
    // The hard loans are there, not filtered out: a tenth lie within 10⁻⁶ paisa of a half paisa.
    expect(report.nearHalf).toBeGreaterThanOrEqual(count / 10);
    for (const kind of [
      'prepayment:reduce-emi',
      'prepayment:reduce-tenure',
      'rate-change:increase-emi',
      'rate-change:extend-tenure',
      'rate-change:combination',
      'rate-change:switch-to-fixed',
      'emi-override',
      'foreclosure',
    ])
      expect(report.accepted[kind], kind).toBeGreaterThan(count / 50);
    for (const field of ['date', 'amount', 'emi', 'newEmi', 'option', 'annualRatePercent'])
      expect(report.refused[field], `refusals on ${field}`).toBeGreaterThan(0);
    expect(report.aprsCompared).toBeGreaterThanOrEqual(count / 20);
    expect(report.previewsCompared).toBe(count);
    // Every loan gets a payment history (marks, matches, missed marks, undos, pre-EMI interest).
    expect(report.payments.histories).toBe(count);
    expect(report.payments.undos).toBeGreaterThan(count / 2);
    expect(report.payments.years).toBeGreaterThan(count * 5);
    console.info(
      `oracle ${first}–${first + count - 1}: ${JSON.stringify({ ...report, differences: report.differences.length })}`,
    );
  }, 600_000); // About 100 s a share alone; the four shares on two busy cores took 630 s together.
}
