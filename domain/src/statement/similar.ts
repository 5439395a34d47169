import { daysBetween } from '../loan/dates';
import { dateWords } from '../loan/words';
import { formatInr, type Paise } from '../money';
import type { StatementRow } from './row';

/** A transaction of the account's book that was typed by hand (not imported). */
export type HandEnteredTransaction = { id: string; date: string; amount: Paise; text: string };

export type PossibleDuplicate = { transaction: HandEnteredTransaction; reason: string };

const DAYS_APART = 3;
const IGNORED = new Set([
  'upi',
  'neft',
  'rtgs',
  'imps',
  'nach',
  'ach',
  'pos',
  'atm',
  'the',
  'and',
  'for',
  'from',
  'payment',
  'transfer',
  'bank',
  'ltd',
  'pvt',
  'limited',
  'private',
]);

/** Words of three letters or more that can tell one payee from another. */
export function textTokens(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((word) => word.length >= 3 && !IGNORED.has(word)),
  );
}

/**
 * Similar text, defined simply: the share of the shorter text's words (three letters or more,
 * channel words and "payment", "bank", "ltd" left out) that the other text also has, at least
 * one half. "Swiggy dinner" and "UPI-SWIGGY-swiggy@axisbank-…" are similar; texts without such
 * words are never similar.
 */
export function similarText(a: string, b: string): boolean {
  const left = textTokens(a);
  const right = textTokens(b);
  const smaller = Math.min(left.size, right.size);
  if (smaller === 0) return false;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return shared / smaller >= 0.5;
}

/**
 * The hand-entered transaction an imported row probably repeats: the same signed amount, a date
 * at most 3 days apart and similar text; the closest date wins. `taken` holds the ids already
 * claimed by earlier rows of the file, so one typed entry is offered against one row only.
 */
export function findPossibleDuplicate(
  row: StatementRow,
  handEntered: readonly HandEnteredTransaction[],
  taken: ReadonlySet<string>,
): PossibleDuplicate | null {
  if (row.kind !== 'transaction' || row.date === null) return null;
  let best: { transaction: HandEnteredTransaction; days: number } | null = null;
  for (const transaction of handEntered) {
    if (transaction.amount !== row.amount || taken.has(transaction.id)) continue;
    const days = Math.abs(daysBetween(transaction.date, row.date));
    if (days > DAYS_APART || !similarText(row.narration, transaction.text)) continue;
    if (best === null || days < best.days) best = { transaction, days };
  }
  if (best === null) return null;
  const apart = best.days === 0 ? 'the same day' : `${best.days} day${best.days === 1 ? '' : 's'} apart`;
  return {
    transaction: best.transaction,
    reason: `May repeat "${best.transaction.text}" of ${dateWords(best.transaction.date)} entered by hand: same amount ${formatInr(Math.abs(row.amount))}, ${apart}, similar text`,
  };
}
