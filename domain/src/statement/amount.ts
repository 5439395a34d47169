import { type Paise, toPaise } from '../money';

/** An amount cell as a bank writes it: its size in paise and the side it names, if any. */
export type StatementAmount = { paise: Paise; side: 'dr' | 'cr' | null };

const CURRENCY = /^(₹|inr|rs\.?)\s*/i;
const SIDE = /\s*\(?(dr|cr)\.?\)?$/i;
/** 1,23,456.78 (Indian), 123,456.78 (Western) or 123456.78; the grouping must be one or the other. */
/** The common case, checked first: digits with optional grouping and decimals, nothing else. */
const PLAIN = /^(\d{1,3}(,\d{3})+|\d{1,2}(,\d{2})*,\d{3}|\d+)(\.\d{1,2})?$/;
const GROUPED = /^(\d{1,3}(,\d{3})+|\d{1,2}(,\d{2})*,\d{3}|\d+)(\.\d+)?$/;

/**
 * Reads an amount cell: `₹`, `INR` or `Rs.` before it, Indian or Western digit grouping, a
 * trailing ` Dr`/` Cr`, a leading minus or brackets for a negative. Answers null for an empty
 * cell (or a lone "-"), and throws a RangeError with a message for anything else that is not an
 * amount. The result is signed only by a minus or brackets; `side` carries Dr/Cr.
 */
export function parseStatementAmount(cell: string): StatementAmount | null {
  let text = cell.trim();
  if (text === '' || text === '-') return null;
  if (PLAIN.test(text)) return { paise: plainPaise(text), side: null };
  let side: 'dr' | 'cr' | null = null;
  const sideMatch = SIDE.exec(text);
  if (sideMatch && /\d/.test(text.slice(0, sideMatch.index))) {
    side = sideMatch[1]!.toLowerCase() as 'dr' | 'cr';
    text = text.slice(0, sideMatch.index).trim();
  }
  let negative = false;
  if (text.startsWith('(') && text.endsWith(')')) {
    negative = true;
    text = text.slice(1, -1).trim();
  }
  if (text.startsWith('-') || text.startsWith('+')) {
    negative = text.startsWith('-');
    text = text.slice(1).trim();
  }
  text = text.replace(CURRENCY, '');
  if (text.startsWith('-')) {
    negative = true;
    text = text.slice(1).trim();
  }
  if (!GROUPED.test(text)) throw new RangeError(`"${cell.trim()}" is not an amount`);
  const paise = toPaise(text.replaceAll(',', ''));
  return { paise: negative ? -paise : paise, side };
}

/** Paise of text that PLAIN matched (at most two decimals), by integer arithmetic alone. */
function plainPaise(text: string): Paise {
  const point = text.indexOf('.');
  const whole = (point === -1 ? text : text.slice(0, point)).replaceAll(',', '');
  const fraction = point === -1 ? '00' : text.slice(point + 1).padEnd(2, '0');
  return Number(whole) * 100 + Number(fraction);
}
