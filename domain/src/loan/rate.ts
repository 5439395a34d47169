import { divideRounded } from '../money/paise';

/**
 * Percentages (interest rates, GST) as exact fractions. A rate arrives as a JS number; the value
 * the user typed is its shortest decimal text (`String(9.1234567)` is "9.1234567"), so that text,
 * not the binary value nor a rounding of it, is the rate every interest and GST figure uses.
 */

/** numerator ÷ denominator, denominator > 0, in lowest terms. */
export type Ratio = Readonly<{ numerator: bigint; denominator: bigint }>;

/**
 * A JSON number holds any decimal of at most 15 significant digits exactly (its shortest text
 * reads back the same); beyond that the digits the user typed may already be lost.
 */
export const MAX_RATE_SIGNIFICANT_DIGITS = 15;

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** The fraction in lowest terms; throws on a zero denominator. */
export function ratio(numerator: bigint, denominator: bigint): Ratio {
  if (denominator === 0n) throw new RangeError('Division by zero');
  const sign = denominator < 0n ? -1n : 1n;
  const divisor = gcd(numerator, denominator) || 1n;
  return { numerator: (sign * numerator) / divisor, denominator: (sign * denominator) / divisor };
}

/** Digits and power of ten of decimal text ("1.5e-7", "-0.25", "12"); null when it is not one. */
function parseDecimalText(text: string): { digits: string; negative: boolean; exponent: number } | null {
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const whole = match[2] ?? '';
  const fraction = match[3] ?? '';
  if (whole === '' && fraction === '') return null;
  return {
    digits: `${whole}${fraction}`,
    negative: match[1] === '-',
    exponent: Number(match[4] ?? 0) - fraction.length,
  };
}

/** The exact value of decimal text, or of a number's shortest decimal text; null when not a finite decimal. */
export function decimalRatio(value: number | string): Ratio | null {
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  const parsed = parseDecimalText(String(value));
  if (parsed === null) return null;
  const magnitude = BigInt(parsed.digits);
  const numerator = parsed.negative ? -magnitude : magnitude;
  return parsed.exponent >= 0
    ? ratio(numerator * 10n ** BigInt(parsed.exponent), 1n)
    : ratio(numerator, 10n ** BigInt(-parsed.exponent));
}

/** Significant digits of decimal text or of a number's shortest text ("0.00120" -> 2); null when not a decimal. */
export function significantDigits(value: number | string): number | null {
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  const parsed = parseDecimalText(String(value));
  if (parsed === null) return null;
  return parsed.digits.replace(/^0+/, '').replace(/0+$/, '').length;
}

/** A percentage as an exact fraction; throws a RangeError for what is not a finite number. */
export function percentRatio(percent: number): Ratio {
  const exact = decimalRatio(percent);
  if (exact === null) throw new RangeError(`Not a percentage: ${percent}`);
  return exact;
}

/** The annual rate of terms entered yearly or monthly (a monthly rate × 12, exactly). */
export function annualRateRatio(rate: number, isYearly: boolean): Ratio {
  const exact = percentRatio(rate);
  return isYearly ? exact : ratio(exact.numerator * 12n, exact.denominator);
}

/**
 * The fraction as a JSON number: exact for a decimal of at most 15 significant digits (every
 * rate as entered), else the nearest number (a monthly rate of 15 digits × 12).
 */
export function ratioToNumber(value: Ratio): number {
  let denominator = value.denominator;
  let scale = 0;
  while (denominator % 10n === 0n) {
    denominator /= 10n;
    scale++;
  }
  for (const factor of [2n, 5n]) {
    while (denominator % factor === 0n) {
      denominator /= factor;
      scale++;
    }
  }
  if (denominator !== 1n) return Number(value.numerator) / Number(value.denominator);
  const scaled = (value.numerator * 10n ** BigInt(scale)) / value.denominator;
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return Number(negative ? `-${text}` : text);
}

/**
 * The level instalment (principal + interest, before GST) in paise, by the standard formula
 * P·r·(1+r)^n / ((1+r)^n − 1) with r = annual ÷ 1200, evaluated exactly: with r = N/D it is
 * P·N·(D+N)^n / (D·((D+N)^n − D^n)), rounded half away from zero to the paisa only at the end
 * (₹9,60,171.84 at 0.962% over 120 months is exactly ₹8,395.674999…, so ₹8,395.67). P ÷ n at 0.
 */
export function levelEmi(principal: number, annualPercent: Ratio, months: number): number {
  if (months <= 0) return 0;
  const count = BigInt(months);
  const monthly = ratio(annualPercent.numerator, annualPercent.denominator * 1200n);
  const n = monthly.numerator;
  const d = monthly.denominator;
  if (n === 0n) return Number(divideRounded(BigInt(principal), count));
  const growth = (d + n) ** count;
  return Number(divideRounded(BigInt(principal) * n * growth, d * (growth - d ** count)));
}
