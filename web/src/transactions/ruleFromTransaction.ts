import type { RuleValues } from '../rules/RuleDialog';
import type { Transaction } from './transactionsApi';

/**
 * A new rule's values from a categorised transaction: the text it matches is the payee when the
 * notes hold it, else the first word of the notes of three letters or more (else the notes); the
 * same type, category and payee.
 */
export function ruleValuesFrom(t: Transaction): Partial<RuleValues> {
  const notes = t.notes.trim();
  const payee = t.payee?.trim() ?? '';
  const word = notes.split(/\s+/).find((w) => /\p{L}{3,}/u.test(w)) ?? notes;
  const text = payee && notes.toLowerCase().includes(payee.toLowerCase()) ? payee : word;
  return {
    name: (payee || word).slice(0, 60),
    match_text: text.slice(0, 100),
    transaction_type: t.transaction_type,
    category_id: t.category_id ?? '',
    payee,
  };
}
