import { divideRounded, type Paise } from '../money/paise';
import { LOAN_CHANGE_MESSAGES, loanChangeError } from '../validation/loan-change';
import type { ActualScheduleRow } from './actual-schedule';
import { type EmiMark, type EmiStanding, emiStandings } from './payments';

/** An Indian financial year, April to March, written `2025-26`. */
export type FinancialYear = Readonly<{ label: string; from: string; to: string }>;

const FY = /^(\d{4})-(\d{2})$/;

/**
 * `2025-26` -> 2025-04-01 … 2026-03-31; throws a 422 for anything else (`2025-27`, `25-26`).
 * From 1999-00, the year holding the earliest start date (2000-01-01): such a loan's first EMIs
 * fall in February and March 2000.
 */
export function financialYear(label: string): FinancialYear {
  const match = FY.exec(label);
  const start = Number(match?.[1]);
  if (!match || start < 1999 || Number(match[2]) !== (start + 1) % 100)
    throw loanChangeError('fy', LOAN_CHANGE_MESSAGES.financialYearInvalid);
  return { label, from: `${start}-04-01`, to: `${start + 1}-03-31` };
}

/** An EMI due in the year and not paid (or paid only in part) by the day the certificate is made. */
export type UnpaidEmi = Readonly<{
  paymentNumber: number;
  dueDate: string;
  amount: Paise;
  remainder: Paise;
  state: EmiStanding['state'];
}>;

export type FinancialYearFigures = Readonly<{
  fy: FinancialYear;
  /**
   * Section 24(b), due basis: the interest of every EMI falling due in the year, plus the
   * interest part of any part-payment or foreclosure in it. Pre-EMI interest apart.
   */
  interest: Paise;
  /**
   * Section 80C, paid basis: the principal of the EMIs paid in the year (auto-debited ones on
   * their due dates, others on the day what was paid covered them), plus principal prepaid.
   */
  principal: Paise;
  /** GST on the interest counted. */
  gst: Paise;
  /** Part-payment and foreclosure charges in the year: never interest. */
  charges: Paise;
  emisDue: number;
  emisPaid: number;
  unpaidEmis: readonly UnpaidEmi[];
  /**
   * Pre-EMI (pre-construction) interest: everything recorded, and the fifth of it deductible in
   * this year (Section 24(b): in five equal parts from the year construction is completed).
   */
  preEmiInterest: Readonly<{
    total: Paise;
    completedOn: string | null;
    /** 1 to 5: which of the five years this is; null when none. */
    instalment: number | null;
    deductible: Paise;
  }>;
}>;

/** What the loan says about its payments, and the day the certificate is made on (YYYY-MM-DD). */
export type CertificatePayments = Readonly<{
  marks: readonly EmiMark[];
  emisAutoDebited: boolean;
  constructionCompletedOn: string | null;
  today: string;
}>;

/** The April–March year a date falls in: 2025 for 2025-04-01 … 2026-03-31. */
const fyStartYear = (date: string): number => {
  const year = Number(date.slice(0, 4));
  return date.slice(5) >= '04-01' ? year : year - 1;
};

type Standings = ReadonlyMap<number, ReturnType<typeof emiStandings>[number]>;
/** The last standings worked out per schedule: the years of one certificate share them. */
const lastStandings = new WeakMap<
  readonly ActualScheduleRow[],
  { payments: CertificatePayments; of: Standings }
>();

/** Each EMI's standing by its number, worked out once for the same rows and payments. */
function standingsOf(rows: readonly ActualScheduleRow[], payments: CertificatePayments): Standings {
  const last = lastStandings.get(rows);
  if (
    last &&
    last.payments.marks === payments.marks &&
    last.payments.emisAutoDebited === payments.emisAutoDebited &&
    last.payments.today === payments.today
  )
    return last.of;
  const of = new Map(
    emiStandings(rows, payments.marks, payments.emisAutoDebited, payments.today).map((s) => [
      s.paymentNumber,
      s,
    ]),
  );
  lastStandings.set(rows, { payments, of });
  return of;
}

/**
 * The figures of a loan's interest certificate for one financial year, as the Income-tax Act
 * reads them: interest on a due basis (Section 24(b)), principal on a paid basis (Section 80C).
 */
export function financialYearFigures(
  rows: readonly ActualScheduleRow[],
  fyLabel: string,
  payments: CertificatePayments,
): FinancialYearFigures {
  const fy = financialYear(fyLabel);
  const inYear = (date: string | null) => date !== null && date >= fy.from && date <= fy.to;
  const standings = standingsOf(rows, payments);
  const figures = { interest: 0, principal: 0, gst: 0, charges: 0, emisDue: 0, emisPaid: 0 };
  const unpaidEmis: UnpaidEmi[] = [];
  let scheduledPreEmi = 0;
  for (const row of rows) {
    if (row.kind === 'pre-emi-interest') {
      scheduledPreEmi += row.interest;
      continue;
    }
    if (row.kind !== 'emi') {
      if (!inYear(row.date)) continue;
      figures.interest += row.interest;
      figures.gst += row.gst;
      figures.principal += row.principal;
      figures.charges += row.charge;
      continue;
    }
    const standing = standings.get(row.paymentNumber);
    if (inYear(row.date)) {
      figures.emisDue++;
      figures.interest += row.interest;
      figures.gst += row.gst;
      if (standing?.overdue) {
        const { paymentNumber, dueDate, amount, remainder, state } = standing;
        unpaidEmis.push({ paymentNumber, dueDate, amount, remainder, state });
      }
    }
    if (standing && inYear(standing.paidOn)) {
      figures.emisPaid++;
      figures.principal += row.principal;
    }
  }
  const total =
    scheduledPreEmi +
    payments.marks.reduce((sum, mark) => sum + (mark.kind === 'pre-emi-interest' ? mark.amount : 0), 0);
  const completedOn = payments.constructionCompletedOn;
  const offset = completedOn === null ? -1 : Number(fy.from.slice(0, 4)) - fyStartYear(completedOn);
  const instalment = total > 0 && offset >= 0 && offset < 5 ? offset + 1 : null;
  // Four equal fifths rounded to the paisa, the fifth year the rest: the five add up to the total.
  // A fifth never exceeds what is left (3 paise: 1, 1, 1, 0, 0, never a fifth year of −1).
  const fifth = Number(divideRounded(BigInt(total), 5n));
  const claimedBefore = (year: number) => Math.min(total, (year - 1) * fifth);
  const deductible =
    instalment === null
      ? 0
      : instalment < 5
        ? Math.min(fifth, total - claimedBefore(instalment))
        : total - claimedBefore(5);
  return {
    fy,
    ...figures,
    unpaidEmis,
    preEmiInterest: { total, completedOn, instalment, deductible },
  };
}
