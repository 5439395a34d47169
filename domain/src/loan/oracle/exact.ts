/**
 * Test-only reference arithmetic for loans, written from the rules and not from the production
 * code: its own fractions (BigInt), its own calendar, the EMI as the principal over the sum of
 * the discount factors (a different evaluation of the same exact value), and the change rules as
 * actual-schedule.ts's comments state them. The oracle suites compare production with it.
 */

/** A decimal the user typed, as an exact fraction `num / den` (den a power of ten). */
export type Fraction = Readonly<{ num: bigint; den: bigint }>;

export const fraction = (num: bigint, den: bigint): Fraction => ({ num, den });

/** "9.1234567" -> 91234567 / 10^7; digits only, with an optional point. */
export function typed(text: string): Fraction {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`oracle: not a plain decimal: ${text}`);
  const decimals = match[2] ?? '';
  return { num: BigInt(match[1]! + decimals), den: 10n ** BigInt(decimals.length) };
}

/** n / d rounded to the nearest integer, halves away from zero (d > 0). */
export function nearest(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new Error('oracle: divisor must be positive');
  const magnitude = n < 0n ? -n : n;
  const whole = magnitude / d;
  const rest = magnitude - whole * d;
  const up = 2n * rest >= d ? whole + 1n : whole;
  return n < 0n ? -up : up;
}

/** Exact decimal text of a typed decimal (its denominator a power of ten): 2283/250 is not one, 9132/1000 is "9.132". */
export function decimalText(value: Fraction): string {
  const places = value.den.toString().length - 1;
  if (10n ** BigInt(places) !== value.den) throw new Error('oracle: not a decimal fraction');
  const digits = value.num.toString().padStart(places + 1, '0');
  if (places === 0) return digits;
  return `${digits.slice(0, -places)}.${digits.slice(-places)}`.replace(/0+$/, '').replace(/\.$/, '');
}

/* ---- Calendar: days since 1970-01-01 by the proleptic Gregorian rules (H. Hinnant's algorithm). */

function dayNumber(date: string): number {
  const [y0, m, d] = date.split('-').map(Number) as [number, number, number];
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const monthLength = (y: number, m: number) =>
  m === 2 ? (leap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;

export const daysFrom = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

/** `count` months after `date`, on the same day or the month's last day. */
export function monthsLater(date: string, count: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + count;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const day = Math.min(d, monthLength(year, month));
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** A real calendar date written YYYY-MM-DD. */
export function realDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return m >= 1 && m <= 12 && d >= 1 && d <= monthLength(y, m);
}

/* ---- The EMI. */

/**
 * The exact level EMI in paise as a fraction: the principal over Σₖ (1+r)^-k, k = 1..n, with
 * r = annual ÷ 1200. With r = N/D that is P·(D+N)^n / Σₖ D^k (D+N)^(n−k), the sum by Horner.
 */
export function exactEmi(principal: bigint, annual: Fraction, months: number): Fraction {
  const n = annual.num;
  const d = annual.den * 1200n;
  let sum = 0n;
  let dPower = 1n;
  let growth = 1n;
  for (let k = 1; k <= months; k++) {
    dPower *= d;
    sum = sum * (d + n) + dPower;
    growth *= d + n;
  }
  return { num: principal * growth, den: sum };
}

/* ---- The loan, month by month. */

export type OracleTerms = Readonly<{
  principal: bigint;
  /** As typed. */
  rateText: string;
  yearly: boolean;
  months: number;
  startDate: string;
  /** As typed, or null when GST is off. */
  gstText: string | null;
}>;

export type OracleChange =
  | Readonly<{
      kind: 'prepayment';
      date: string;
      amount: number;
      charge: number;
      choice: 'reduce-emi' | 'reduce-tenure';
    }>
  | Readonly<{
      kind: 'rate-change';
      date: string;
      rateText: string;
      option: 'increase-emi' | 'extend-tenure' | 'combination' | 'switch-to-fixed';
      newEmi: number | null;
    }>
  | Readonly<{ kind: 'emi-override'; date: string; emi: number }>
  | Readonly<{ kind: 'foreclosure'; date: string; charge: number }>;

export type OracleRow = Readonly<{
  kind: 'emi' | 'prepayment' | 'foreclosure';
  paymentNumber: number;
  date: string;
  principal: number;
  interest: number;
  gst: number;
  charge: number;
  amount: number;
  remainingPrincipal: number;
  annualRatePercent: number;
}>;

export type OracleSchedule = Readonly<{
  rows: OracleRow[];
  emi: number;
  annualRatePercent: number;
  fixedRateSince: string | null;
  closedOn: string;
}>;

/** Why the oracle refuses a change: the field the user must correct. */
export class OracleRefusal extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(reason);
  }
}

const MAX_INSTALMENTS = 600;
const wholePaise = (value: number, least: number) => Number.isSafeInteger(value) && value >= least;

export function oracleSchedule(terms: OracleTerms, changes: readonly OracleChange[]): OracleSchedule {
  const entered = typed(terms.rateText);
  let annual: Fraction = terms.yearly ? entered : { num: entered.num * 12n, den: entered.den };
  let annualNumber = Number(decimalText(annual));
  const gstRate = terms.gstText === null ? { num: 0n, den: 1n } : typed(terms.gstText);
  const rows: OracleRow[] = [];
  let balance = terms.principal;
  let instalment = 1;
  let finalInstalment = terms.months;
  let lastPaid = terms.startDate;
  let fixedSince: string | null = null;
  let closedBy: string | null = null;

  const interestFor = (amount: bigint) => nearest(amount * annual.num, annual.den * 1200n);
  const accrued = (amount: bigint, days: number) =>
    nearest(amount * annual.num * BigInt(days), annual.den * 36500n);
  const dateOf = (n: number) => monthsLater(terms.startDate, n);
  const level = (count: number) => {
    const exact = exactEmi(balance, annual, count);
    const rounded = nearest(exact.num, exact.den);
    const interest = interestFor(balance);
    return rounded > interest ? rounded : interest + 1n;
  };
  /** Instalments of `emi` that repay the balance (the last taking the rest), null past `most`. */
  const repaidWithin = (emi: bigint, most: number): number | null => {
    let left = balance;
    for (let count = 1; count <= most; count++) {
      const repaid = emi - interestFor(left);
      if (repaid >= left) return count;
      left -= repaid;
    }
    return null;
  };
  let emi = level(terms.months);

  const record = (
    kind: OracleRow['kind'],
    date: string,
    principal: bigint,
    interest: bigint,
    charge: bigint,
  ) => {
    const gst = nearest(interest * gstRate.num, gstRate.den * 100n);
    balance -= principal;
    rows.push({
      kind,
      paymentNumber: kind === 'emi' ? instalment : instalment - 1,
      date,
      principal: Number(principal),
      interest: Number(interest),
      gst: Number(gst),
      charge: Number(charge),
      amount: Number(principal + interest + gst + charge),
      remainingPrincipal: Number(balance),
      annualRatePercent: annualNumber,
    });
  };
  const payInstalment = () => {
    const interest = interestFor(balance);
    const repaid = emi - interest;
    const principal = instalment === finalInstalment || repaid > balance ? balance : repaid;
    const date = dateOf(instalment);
    record('emi', date, principal, interest, 0n);
    lastPaid = date;
    if (balance === 0n) finalInstalment = instalment;
    instalment++;
  };
  const instalmentsLeft = () => {
    const planned = finalInstalment - instalment + 1;
    const needed = repaidWithin(emi, planned);
    return needed === null ? planned : Math.min(planned, needed);
  };
  /** A new level EMI, refused when it does not beat the month's interest or needs too many months. */
  const holdEmi = (newEmi: bigint, field: string, most = Number.POSITIVE_INFINITY) => {
    if (newEmi <= interestFor(balance)) throw new OracleRefusal(field, 'EMI does not cover the interest');
    const room = MAX_INSTALMENTS - (instalment - 1);
    let count = repaidWithin(newEmi, Math.min(room, most));
    if (count === null && most <= room) count = most;
    if (count === null) throw new OracleRefusal(field, 'more than 600 instalments');
    emi = newEmi;
    finalInstalment = instalment - 1 + count;
  };

  let previous = terms.startDate;
  for (const change of changes) {
    if (!realDate(change.date)) throw new OracleRefusal('date', 'not a date');
    if (change.date < terms.startDate) throw new OracleRefusal('date', 'before the start');
    if (change.date < previous) throw new OracleRefusal('date', 'out of order');
    if (closedBy !== null) throw new OracleRefusal('date', 'foreclosed');
    previous = change.date;
    while (balance > 0n && dateOf(instalment) <= change.date) payInstalment();
    if (balance === 0n) throw new OracleRefusal('date', 'repaid');
    switch (change.kind) {
      case 'prepayment': {
        if (!wholePaise(change.amount, 1)) throw new OracleRefusal('amount', 'bad amount');
        if (!wholePaise(change.charge, 0)) throw new OracleRefusal('charge', 'bad charge');
        const amount = BigInt(change.amount);
        if (amount >= balance) throw new OracleRefusal('amount', 'not below the outstanding');
        const left = instalmentsLeft();
        record(
          'prepayment',
          change.date,
          amount,
          accrued(amount, daysFrom(lastPaid, change.date)),
          BigInt(change.charge),
        );
        if (change.choice === 'reduce-emi') {
          const lower = level(left);
          if (lower < emi) emi = lower;
          finalInstalment = instalment - 1 + left;
        } else {
          holdEmi(emi, 'amount', left);
        }
        break;
      }
      case 'rate-change': {
        if (fixedSince !== null) throw new OracleRefusal('option', 'fixed');
        const rate = typed(change.rateText);
        const rateNumber = Number(change.rateText);
        if (rate.num * 10n < rate.den || rate.num > 50n * rate.den)
          throw new OracleRefusal('annualRatePercent', 'out of range');
        const left = instalmentsLeft();
        const rose = rate.num * annual.den > annual.num * rate.den;
        annual = rate;
        annualNumber = rateNumber;
        if (change.option === 'increase-emi' || change.option === 'switch-to-fixed') {
          const before = emi;
          emi = level(left);
          finalInstalment = instalment - 1 + left;
          if (rose && emi < before) holdEmi(before, 'option', left);
          if (change.option === 'switch-to-fixed') fixedSince = change.date;
        } else if (change.option === 'extend-tenure') {
          holdEmi(emi, 'option');
        } else {
          if (change.newEmi === null) throw new OracleRefusal('newEmi', 'required');
          if (!wholePaise(change.newEmi, 1)) throw new OracleRefusal('newEmi', 'bad EMI');
          holdEmi(BigInt(change.newEmi), 'newEmi');
        }
        break;
      }
      case 'emi-override':
        if (!wholePaise(change.emi, 1)) throw new OracleRefusal('emi', 'bad EMI');
        holdEmi(BigInt(change.emi), 'emi');
        break;
      case 'foreclosure':
        if (!wholePaise(change.charge, 0)) throw new OracleRefusal('charge', 'bad charge');
        record(
          'foreclosure',
          change.date,
          balance,
          accrued(balance, daysFrom(lastPaid, change.date)),
          BigInt(change.charge),
        );
        closedBy = change.date;
        break;
    }
  }
  while (balance > 0n) payInstalment();
  return {
    rows,
    emi: Number(emi),
    annualRatePercent: annualNumber,
    fixedRateSince: fixedSince,
    closedOn: rows.at(-1)!.date,
  };
}

/* ---- The APR: the monthly IRR ×12, found by bisection in 40-digit fixed point. */

const SCALE = 10n ** 40n;

/** Present value (× SCALE) of the instalments at the monthly rate `rate` (× SCALE). */
function presentValue(instalments: readonly bigint[], rate: bigint): bigint {
  let factor = SCALE;
  let total = 0n;
  for (const amount of instalments) {
    factor = (factor * SCALE) / (SCALE + rate);
    total += amount * factor;
  }
  return total;
}

/**
 * The KFS APR (percent, unrounded, as a fraction of SCALE × 100) of a loan paying `instalments`
 * monthly from one month after receiving `received` paise; null when above 1200%.
 */
export function oracleApr(received: bigint, instalments: readonly bigint[]): bigint | null {
  let low = 0n;
  let high = SCALE;
  if (presentValue(instalments, high) > received * SCALE) return null;
  if (presentValue(instalments, low) < received * SCALE) low = -(SCALE * 99n) / 100n;
  for (let step = 0; step < 80; step++) {
    const middle = (low + high) / 2n;
    if (presentValue(instalments, middle) > received * SCALE) low = middle;
    else high = middle;
  }
  return ((low + high) / 2n) * 1200n;
}

export const APR_SCALE = SCALE;
