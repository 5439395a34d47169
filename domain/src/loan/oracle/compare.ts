/**
 * Test-only: runs generated loans through production and through the oracle and lists every
 * difference (row by row, every field, totals, refusals, the contract APR).
 */
import { ValidationError } from '../../shared/errors';
import { type ActualSchedule, actualSchedule, type LoanChange } from '../actual-schedule';
import { annualPercentageRate } from '../apr';
import { calculateLoan } from '../calculator';
import type { ScheduleTerms } from '../events';
import { generateSchedule } from '../schedule';
import { type PaymentTally, paymentDifferences } from './compare-payments';
import {
  APR_SCALE,
  exactEmi,
  nearest,
  type OracleChange,
  OracleRefusal,
  type OracleSchedule,
  type OracleTerms,
  oracleApr,
  oracleSchedule,
  typed,
} from './exact';
import { classOf, emiNearHalf, generateLoan, int, type LoanClass, nextChange, prng } from './generate';

export type OracleReport = {
  loans: number;
  byClass: Record<LoanClass, number>;
  /** Loans whose exact EMI lies within a millionth of a paisa of a half paisa. */
  nearHalf: number;
  rowsCompared: number;
  /** Accepted changes by kind and choice or option ("rate-change:combination"). */
  accepted: Record<string, number>;
  /** Changes both refused, by the field refused. */
  refused: Record<string, number>;
  aprsCompared: number;
  /** Calculator previews (spec section 5) of the loans' terms. */
  previewsCompared: number;
  /** Payment histories on the loans as last changed: EMI standings and certificate years compared. */
  payments: PaymentTally;
  differences: string[];
};

/** What production is given: the typed texts as JSON numbers. */
export function productionTerms(terms: OracleTerms, rng: () => number): ScheduleTerms {
  const inYears = terms.months % 12 === 0 && rng() < 0.5;
  return {
    principalAmount: Number(terms.principal),
    interestRate: Number(terms.rateText),
    isInterestRateYearly: terms.yearly,
    duration: inYears ? terms.months / 12 : terms.months,
    isDurationYearly: inYears,
    startDate: terms.startDate,
    hasGst: terms.gstText !== null,
    // With GST off production must ignore whatever percentage is left in the terms.
    gstPercentage: terms.gstText === null ? int(rng, 0, 100) : Number(terms.gstText),
  };
}

export function productionChange(change: OracleChange): LoanChange {
  if (change.kind !== 'rate-change') return change;
  const { rateText, ...rest } = change;
  return { ...rest, annualRatePercent: Number(rateText) };
}

type Outcome = { ok: true; schedule: OracleSchedule } | { ok: false; field: string };
type ProductionOutcome = { ok: true; schedule: ActualSchedule } | { ok: false; field: string };

function runOracle(terms: OracleTerms, changes: readonly OracleChange[]): Outcome {
  try {
    return { ok: true, schedule: oracleSchedule(terms, changes) };
  } catch (error) {
    if (error instanceof OracleRefusal) return { ok: false, field: error.field };
    throw error;
  }
}

function runProduction(terms: ScheduleTerms, changes: readonly OracleChange[]): ProductionOutcome {
  try {
    return { ok: true, schedule: actualSchedule(terms, changes.map(productionChange)) };
  } catch (error) {
    if (error instanceof ValidationError) return { ok: false, field: error.errors[0]?.field ?? '?' };
    throw error;
  }
}

const sum = (rows: readonly { [key: string]: unknown }[], key: string) =>
  rows.reduce((total, row) => total + (row[key] as number), 0);

/** Differences between a production schedule and the oracle's, as readable lines. */
function differences(actual: ActualSchedule, expected: OracleSchedule): string[] {
  const found: string[] = [];
  const rows = Math.max(actual.rows.length, expected.rows.length);
  for (let i = 0; i < rows && found.length < 3; i++) {
    const a = actual.rows[i];
    const e = expected.rows[i];
    const got = a && {
      kind: a.kind,
      paymentNumber: a.paymentNumber,
      date: a.date,
      principal: a.principal,
      interest: a.interest,
      gst: a.gst,
      charge: a.charge,
      amount: a.amount,
      remainingPrincipal: a.remainingPrincipal,
      annualRatePercent: a.annualRatePercent,
    };
    if (JSON.stringify(got) !== JSON.stringify(e))
      found.push(`row ${i + 1}: production ${JSON.stringify(got)} oracle ${JSON.stringify(e)}`);
  }
  const totals = {
    principal: sum(expected.rows, 'principal'),
    interest: sum(expected.rows, 'interest'),
    gst: sum(expected.rows, 'gst'),
    charges: sum(expected.rows, 'charge'),
    amount: sum(expected.rows, 'amount'),
    numberOfEmis: expected.rows.filter((row) => row.kind === 'emi').length,
  };
  if (JSON.stringify(actual.totals) !== JSON.stringify(totals))
    found.push(`totals: production ${JSON.stringify(actual.totals)} oracle ${JSON.stringify(totals)}`);
  const head = (s: {
    emi: number;
    annualRatePercent: number;
    fixedRateSince: string | null;
    closedOn: string;
  }) => JSON.stringify([s.emi, s.annualRatePercent, s.fixedRateSince, s.closedOn]);
  if (head(actual) !== head(expected))
    found.push(`emi/rate/fixed/closed: production ${head(actual)} oracle ${head(expected)}`);
  return found;
}

/** The contract schedule (`generateSchedule`) against the oracle without changes. */
function contractDifferences(terms: ScheduleTerms, expected: OracleSchedule): string[] {
  const { rows, totals } = generateSchedule(terms);
  const mapped = expected.rows.map((row) => ({
    paymentNumber: row.paymentNumber,
    emiDate: row.date,
    principal: row.principal,
    interest: row.interest,
    gst: row.gst,
    emi: row.amount,
    remainingPrincipal: row.remainingPrincipal,
  }));
  const expectedTotals = {
    principal: sum(expected.rows, 'principal'),
    interest: sum(expected.rows, 'interest'),
    gst: sum(expected.rows, 'gst'),
    emi: sum(expected.rows, 'amount'),
    numberOfPayments: expected.rows.length,
  };
  const found: string[] = [];
  if (JSON.stringify(rows) !== JSON.stringify(mapped)) found.push('contract rows differ from the oracle');
  if (JSON.stringify(totals) !== JSON.stringify(expectedTotals))
    found.push(
      `contract totals: production ${JSON.stringify(totals)} oracle ${JSON.stringify(expectedTotals)}`,
    );
  return found;
}

/**
 * The contract APR against the oracle's IRR, to two decimals. Where the exact APR lies within
 * 10⁻⁹ of a rounding boundary the float bisection may land either side; either answer is right.
 */
function aprDifference(rng: () => number, terms: OracleTerms, schedule: OracleSchedule): string | null {
  const fee = BigInt(Math.floor(Number(terms.principal) * rng() * 0.1));
  const feeGstText = rng() < 0.7 ? '18' : `${int(rng, 0, 10_000) / 100}`;
  const feeGst = typed(feeGstText);
  const received = terms.principal - fee - nearest(fee * feeGst.num, feeGst.den * 100n);
  const instalments = schedule.rows.map((row) => BigInt(row.amount));
  const exact = oracleApr(received, instalments);
  if (exact === null) return null;
  const production = annualPercentageRate({
    principal: Number(terms.principal),
    processingFee: Number(fee),
    feeGstPercent: Number(feeGstText),
    instalments: instalments.map(Number),
  });
  const hundredths = nearest(exact * 100n, APR_SCALE);
  const boundary = (exact * 100n) % APR_SCALE;
  const nearBoundary =
    boundary * 10n ** 9n > APR_SCALE * (10n ** 9n / 2n - 1n) &&
    boundary * 10n ** 9n < APR_SCALE * (10n ** 9n / 2n + 1n);
  const ok =
    Math.round(production * 100) === Number(hundredths) ||
    (nearBoundary && Math.abs(Math.round(production * 100) - Number(hundredths)) <= 1);
  return ok
    ? null
    : `APR: production ${production} oracle ${Number(hundredths) / 100} (fee ${fee}, GST ${feeGstText}%)`;
}

/**
 * The calculator preview against exact fractions: EMI E = P·F, total interest E·n − P, GST on it,
 * the total, and the first month's GST on its interest rounded to the paisa; each rounded once.
 */
function previewDifference(terms: OracleTerms, production: ScheduleTerms): string | null {
  const rate = typed(terms.rateText);
  const annual = terms.yearly ? rate : { num: rate.num * 12n, den: rate.den };
  const gst = terms.gstText === null ? { num: 0n, den: 1n } : typed(terms.gstText);
  const months = BigInt(terms.months);
  // In paise: E = P·F exactly, as num/den.
  const emi = exactEmi(terms.principal, annual, terms.months);
  const interest = { num: emi.num * months - terms.principal * emi.den, den: emi.den };
  const gstTotal = { num: interest.num * gst.num, den: interest.den * gst.den * 100n };
  const firstInterest = nearest(terms.principal * annual.num, annual.den * 1200n);
  const firstGst = nearest(firstInterest * gst.num, gst.den * 100n);
  const emiPaise = nearest(emi.num, emi.den);
  const expected = {
    months: terms.months,
    emi: Number(emiPaise) / 100,
    totalInterest: Number(nearest(interest.num, interest.den)) / 100,
    gst: Number(nearest(gstTotal.num, gstTotal.den)) / 100,
    totalAmount:
      Number(
        nearest(terms.principal * gstTotal.den + interest.num * gst.den * 100n + gstTotal.num, gstTotal.den),
      ) / 100,
    firstGst: Number(firstGst) / 100,
    firstOutflow: Number(emiPaise + firstGst) / 100,
  };
  const rupees = `${terms.principal / 100n}.${String(terms.principal % 100n).padStart(2, '0')}`;
  const actual = calculateLoan({
    principalAmount: rupees,
    interestRate: terms.rateText,
    duration: String(production.duration),
    isDurationYearly: production.isDurationYearly,
    isInterestRateYearly: terms.yearly,
    hasGst: terms.gstText !== null,
    gstPercentage: terms.gstText ?? '18',
  });
  return JSON.stringify(actual) === JSON.stringify(expected)
    ? null
    : `preview: production ${JSON.stringify(actual)} oracle ${JSON.stringify(expected)}`;
}

/** Loans `first` … `first + count − 1`, loan i from seed `baseSeed + i`. */
export function compareWithOracle(
  baseSeed: number,
  first: number,
  count: number,
  aprEvery = 20,
): OracleReport {
  const report: OracleReport = {
    loans: 0,
    byClass: { realistic: 0, 'whole-range': 0, 'edit-precision': 0, 'tiny-emi': 0, 'near-half': 0 },
    nearHalf: 0,
    rowsCompared: 0,
    accepted: {},
    refused: {},
    aprsCompared: 0,
    previewsCompared: 0,
    payments: { histories: 0, steps: 0, undos: 0, standings: 0, years: 0 },
    differences: [],
  };
  for (let index = first; index < first + count; index++) {
    const seed = baseSeed + index;
    const rng = prng(seed);
    const loanClass = classOf(index);
    const terms = generateLoan(rng, loanClass);
    const production = productionTerms(terms, rng);
    const fail = (what: string, changes: readonly OracleChange[]) =>
      report.differences.push(
        `loan ${index} of base seed ${baseSeed} (PRNG seed ${seed}, ${loanClass}): ${what}\n  terms ${JSON.stringify({ ...terms, principal: Number(terms.principal) })}\n  changes ${JSON.stringify(changes)}`,
      );
    report.loans++;
    report.byClass[loanClass]++;
    if (emiNearHalf(terms)) report.nearHalf++;

    const contract = oracleSchedule(terms, []);
    for (const line of contractDifferences(production, contract)) fail(line, []);
    report.rowsCompared += contract.rows.length;
    if (index % aprEvery === 0) {
      const line = aprDifference(rng, terms, contract);
      report.aprsCompared++;
      if (line !== null) fail(line, []);
    }

    const preview = previewDifference(terms, production);
    report.previewsCompared++;
    if (preview !== null) fail(preview, []);

    const accepted: OracleChange[] = [];
    let current = contract;
    let currentRows = actualSchedule(production, []).rows;
    const wanted = rng() < 0.35 ? 0 : int(rng, 1, 6);
    for (let step = 0; step < wanted; step++) {
      const so = current;
      const change = nextChange(rng, terms, accepted.at(-1)?.date ?? null, {
        balanceOn: (date) => {
          const paid = so.rows.filter((row) => row.date <= date);
          return paid.length === 0 ? terms.principal : BigInt(paid.at(-1)!.remainingPrincipal);
        },
        emi: BigInt(so.emi),
        lastDate: so.closedOn,
      });
      const trial = [...accepted, change];
      const expected = runOracle(terms, trial);
      const actual = runProduction(production, trial);
      if (expected.ok && actual.ok) {
        const found = differences(actual.schedule, expected.schedule);
        for (const line of found) fail(line, trial);
        report.rowsCompared += expected.schedule.rows.length;
        const key = `${change.kind}${change.kind === 'prepayment' ? `:${change.choice}` : change.kind === 'rate-change' ? `:${change.option}` : ''}`;
        report.accepted[key] = (report.accepted[key] ?? 0) + 1;
        accepted.push(change);
        current = expected.schedule;
        currentRows = actual.schedule.rows;
      } else if (!expected.ok && !actual.ok) {
        if (expected.field !== actual.field)
          fail(`both refuse, production on ${actual.field}, oracle on ${expected.field}`, trial);
        report.refused[actual.field] = (report.refused[actual.field] ?? 0) + 1;
      } else {
        fail(
          expected.ok
            ? `production refuses (${(actual as { field: string }).field}), oracle accepts`
            : `oracle refuses (${expected.field}), production accepts`,
          trial,
        );
      }
    }
    // Its own stream, so the loans and changes above stay those of earlier runs of a seed.
    const paymentRng = prng((seed * 7 + 0x51ed) >>> 0);
    for (const line of paymentDifferences(
      paymentRng,
      currentRows,
      current.rows,
      terms.startDate,
      report.payments,
    ))
      fail(line, accepted);
  }
  return report;
}
