/**
 * Test-only generators for the oracle suites: a seeded PRNG (so every failure reproduces from the
 * seed it prints), loans over the whole allowed range (spec section 9) and their change sequences.
 */
import {
  exactEmi,
  type Fraction,
  monthsLater,
  nearest,
  type OracleChange,
  type OracleTerms,
  typed,
} from './exact';

/** sfc32: small, fast, and good enough to spread test cases. */
export function prng(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

export type Rng = () => number;
export const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, items: readonly T[]): T => items[int(rng, 0, items.length - 1)]!;
/** Log-uniform integer: small and large values equally often. */
const logInt = (rng: Rng, min: number, max: number): number =>
  Math.min(max, Math.max(min, Math.round(Math.exp(Math.log(min) + rng() * (Math.log(max) - Math.log(min))))));

/** Decimal text of `units / 10^places`, trailing zeros dropped. */
function text(units: bigint, places: number): string {
  const digits = units.toString().padStart(places + 1, '0');
  if (places === 0) return digits;
  return `${digits.slice(0, -places)}.${digits.slice(-places)}`.replace(/0+$/, '').replace(/\.$/, '');
}

/** A rate as typed on the create form: 0.1 to `max`, three decimals. */
const createRate = (rng: Rng, min = 0.1, max = 50): string =>
  text(BigInt(int(rng, Math.round(min * 1000), Math.round(max * 1000))), 3);

/** A rate as an edit allows: 0.1 to 50 with up to 15 significant digits. */
function editRate(rng: Rng): string {
  const places = int(rng, 4, 13);
  const low = 10n ** BigInt(places - 1);
  const span = 50n * 10n ** BigInt(places) - low;
  const units = low + (BigInt(Math.floor(rng() * 2 ** 52)) * span) / 2n ** 52n;
  return text(units, places);
}

/** A GST percentage as an edit allows: 0 to 100 with up to 6 decimals. */
function editGst(rng: Rng): string {
  const places = int(rng, 0, 6);
  return text(BigInt(Math.floor(rng() * (100 * 10 ** places + 1))), places);
}

const startDate = (rng: Rng): string => {
  const days = int(rng, 0, 36524);
  return new Date(Date.UTC(2000, 0, 1 + days)).toISOString().slice(0, 10);
};

export type LoanClass = 'realistic' | 'whole-range' | 'edit-precision' | 'tiny-emi' | 'near-half';

/**
 * A principal (₹100 to ₹10 crore) whose exact EMI lies within 10⁻⁷ of a paisa of a half paisa:
 * the fractional part of P·F (F the EMI per paisa) is steered to ½ along the convergents of F's
 * continued fraction, each step cutting the distance below the next convergent's error.
 */
export function nearHalfPrincipal(rng: Rng, annual: Fraction, months: number): bigint | null {
  const perPaisa = exactEmi(1n, annual, months);
  const y = perPaisa.den;
  const x = perPaisa.num % y;
  const steps: { q: bigint; delta: bigint }[] = [];
  let [num, den] = [x, y];
  let [h2, h1, k2, k1] = [0n, 1n, 1n, 0n];
  while (den !== 0n && k1 < 10n ** 9n) {
    const a = num / den;
    [num, den] = [den, num - a * den];
    [h2, h1] = [h1, a * h1 + h2];
    [k2, k1] = [k1, a * k1 + k2];
    steps.push({ q: k1, delta: k1 * x - h1 * y });
  }
  let principal = BigInt(int(rng, 20_000_000, 9_980_000_000));
  const offset = () => 2n * ((principal * x) % y) - y;
  for (const { q, delta } of steps) {
    const e = offset();
    if (e * 10_000_000n < 2n * y && -e * 10_000_000n < 2n * y) break;
    if (delta === 0n || q === 0n) continue;
    const m = delta > 0n ? nearest(-e, 2n * delta) : nearest(e, -2n * delta);
    principal += m * q;
  }
  const e = offset();
  const close = e * 1_000_000n < 2n * y && -e * 1_000_000n < 2n * y;
  return close && principal >= 10_000n && principal <= 10_000_000_000n ? principal : null;
}

/** Within a millionth of a paisa of a half paisa. */
export function emiNearHalf(terms: OracleTerms): boolean {
  const rate = typed(terms.rateText);
  const annual = terms.yearly ? rate : { num: rate.num * 12n, den: rate.den };
  const { num, den } = exactEmi(terms.principal, annual, terms.months);
  const e = 2n * (num % den) - den;
  return e * 1_000_000n < 2n * den && -e * 1_000_000n < 2n * den;
}

export function generateLoan(rng: Rng, loanClass: LoanClass): OracleTerms {
  const gstText = rng() < 0.5 ? null : rng() < 0.6 ? '18' : text(BigInt(int(rng, 0, 10_000)), 2);
  const start = startDate(rng);
  switch (loanClass) {
    case 'realistic':
      return {
        principal: BigInt(logInt(rng, 10_000_000, 2_000_000_000)),
        rateText: createRate(rng, 6, 18),
        yearly: true,
        months: pick(rng, [12, 36, 60, 84, 120, 180, 240, 300, 360]),
        startDate: start,
        gstText,
      };
    case 'whole-range': {
      const yearly = rng() < 0.7;
      return {
        principal: BigInt(logInt(rng, 10_000, 10_000_000_000)),
        rateText: yearly ? createRate(rng) : createRate(rng, 0.1, rng() < 0.8 ? 4.167 : 50),
        yearly,
        months: int(rng, 1, 600),
        startDate: start,
        gstText,
      };
    }
    case 'edit-precision':
      return {
        principal: BigInt(logInt(rng, 10_000, 10_000_000_000)),
        rateText: editRate(rng),
        yearly: rng() < 0.8,
        months: int(rng, 1, 600),
        startDate: start,
        gstText: gstText === null ? null : editGst(rng),
      };
    case 'tiny-emi':
      // Very high rates over long tenures on small sums: the EMI rounds to the month's interest.
      return {
        principal: BigInt(logInt(rng, 10_000, 1_000_000)),
        rateText: rng() < 0.5 ? createRate(rng, 30, 50) : createRate(rng, 3, 50),
        yearly: rng() < 0.5,
        months: int(rng, 300, 600),
        startDate: start,
        gstText,
      };
    case 'near-half': {
      for (;;) {
        const yearly = rng() < 0.8;
        const rateText = yearly ? createRate(rng, 0.1, 30) : createRate(rng, 0.1, 2.5);
        const months = int(rng, 2, 600);
        const rate = typed(rateText);
        const annual = yearly ? rate : { num: rate.num * 12n, den: rate.den };
        const principal = nearHalfPrincipal(rng, annual, months);
        if (principal !== null) return { principal, rateText, yearly, months, startDate: start, gstText };
      }
    }
  }
}

/** The class of the `index`-th loan of a run: every class in fixed shares. */
export function classOf(index: number): LoanClass {
  const slot = index % 20;
  if (slot < 7) return 'realistic';
  if (slot < 12) return 'whole-range';
  if (slot < 14) return 'edit-precision';
  if (slot < 16) return 'tiny-emi';
  return 'near-half';
}

const plusDays = (date: string, days: number): string => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};

/** What the next change is sized against: the loan as the oracle has it so far. */
export type LoanSoFar = Readonly<{ balanceOn: (date: string) => bigint; emi: bigint; lastDate: string }>;

/** The next change of a sequence, sometimes invalid on purpose (production must refuse it too). */
export function nextChange(
  rng: Rng,
  terms: OracleTerms,
  previous: string | null,
  loan: LoanSoFar,
): OracleChange {
  const from = previous ?? terms.startDate;
  const horizon = Math.max(1, Math.round((Date.parse(loan.lastDate) - Date.parse(from)) / 86_400_000));
  let date =
    rng() < 0.1
      ? from
      : plusDays(from, rng() < 0.05 ? horizon + int(rng, 0, 60) : int(rng, 1, Math.ceil(horizon / 2)));
  if (previous === null && rng() < 0.02) date = plusDays(terms.startDate, -int(rng, 1, 30));
  if (rng() < 0.1) date = monthsLater(terms.startDate, int(rng, 1, terms.months));
  if (previous !== null && date < previous) date = previous;
  const balance = loan.balanceOn(date);
  const roll = rng();
  if (roll < 0.35) {
    const amount =
      rng() < 0.04
        ? Number(balance)
        : rng() < 0.02
          ? 0
          : Math.max(1, Math.floor(Number(balance) * rng() * (rng() < 0.5 ? 1 : 0.05)));
    const charge = rng() < 0.5 ? 0 : int(rng, 0, Math.max(0, Math.floor(amount / 50)));
    return { kind: 'prepayment', date, amount, charge, choice: rng() < 0.5 ? 'reduce-emi' : 'reduce-tenure' };
  }
  if (roll < 0.7) {
    const rateText =
      rng() < 0.03 ? pick(rng, ['0.09', '50.001', '0.099']) : rng() < 0.2 ? editRate(rng) : createRate(rng);
    const option = pick(rng, ['increase-emi', 'extend-tenure', 'combination', 'switch-to-fixed'] as const);
    const newEmi =
      option !== 'combination' || rng() < 0.05
        ? null
        : Math.max(rng() < 0.02 ? 0 : 1, Math.round(Number(loan.emi) * (0.2 + rng() * 2.8)));
    return { kind: 'rate-change', date, rateText, option, newEmi };
  }
  if (roll < 0.88) {
    return {
      kind: 'emi-override',
      date,
      emi: Math.max(1, Math.round(Number(loan.emi) * (0.2 + rng() * 2.8))),
    };
  }
  return { kind: 'foreclosure', date, charge: rng() < 0.5 ? 0 : int(rng, 0, 10_000_000) };
}
