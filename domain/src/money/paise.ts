/**
 * Money in the domain is an integer number of paise (₹1 = 100 paise). Conversions go through the
 * decimal digits of the value, never through `value * 100`, so 1.005 becomes 101 paise as a
 * person would round it, not 100 as binary floating point would.
 */
export type Paise = number;

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?$/;
/** Up to 13 whole digits (exact in a double as paise) and two decimals, as numeric(14,2) prints. */
const TWO_DECIMALS = /^(-?)(\d{1,13})\.(\d\d)$/;

/** Splits a decimal into sign, integer digits and fraction digits; null when it is not one. */
function parseDecimal(text: string): { negative: boolean; whole: string; fraction: string } | null {
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const whole = match[2] ?? '';
  const fraction = match[3] ?? '';
  if (whole === '' && fraction === '') return null;
  return { negative: match[1] === '-', whole: whole || '0', fraction };
}

/** Decimal text of a finite number without exponent notation (1e-7 -> "0.0000001"). */
function numberToDecimalText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/\.?0+$/, '');
}

/**
 * Rupees (a decimal string such as "1234.56" or a number) to paise, rounding half away from zero
 * at the third decimal. Throws on text that is not a decimal number or on a non-finite number.
 */
export function toPaise(rupees: string | number): Paise {
  // PostgreSQL's numeric(14,2) text (the read models' money): whole digits and exactly two
  // decimals, nothing to round; read without the general parse (a 600-row schedule reads 4,200).
  if (typeof rupees === 'string') {
    const cents = TWO_DECIMALS.exec(rupees);
    if (cents) {
      const paise = Number(cents[2]) * 100 + Number(cents[3]);
      return cents[1] && paise !== 0 ? -paise : paise;
    }
  }
  const parsed = parseDecimal(typeof rupees === 'number' ? numberToDecimalText(rupees) : rupees);
  if (parsed === null || (typeof rupees === 'number' && !Number.isFinite(rupees))) {
    throw new RangeError(`Not a decimal amount: ${String(rupees)}`);
  }
  const fraction = parsed.fraction.padEnd(3, '0');
  let paise = Number(parsed.whole) * 100 + Number(fraction.slice(0, 2));
  if (Number(fraction[2]) >= 5) paise += 1;
  const signed = parsed.negative ? -paise : paise;
  return signed === 0 ? 0 : signed;
}

/**
 * Paise to rupees as a JSON number with at most two decimals (123456 -> 1234.56): the number the
 * decimal text `toDecimalString` gives reads as. Dividing the whole paise by 100 is that same
 * number: IEEE division rounds the exact quotient p/100 to the nearest double, and reading the
 * text "1234.56" rounds the same rational to the nearest double (exact for |p| < 2^53).
 */
export function fromPaise(paise: Paise): number {
  const whole = Math.trunc(paise);
  return whole === 0 ? 0 : whole / 100;
}

/** Paise to a decimal string with exactly two decimals, as PostgreSQL `numeric(14,2)` takes it. */
export function toDecimalString(paise: Paise): string {
  const negative = paise < 0;
  const abs = Math.abs(Math.trunc(paise));
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return negative ? `-${text}` : text;
}

/** Rounds a number of rupees to two decimals the way `toPaise` does (1.005 -> 1.01). */
export function roundRupees(rupees: number): number {
  return fromPaise(toPaise(rupees));
}

/** Integer division rounding half away from zero, exact for any size (BigInt). */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = (2n * n + d) / (2n * d);
  return negative ? -quotient : quotient;
}
