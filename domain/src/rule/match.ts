import type { Paise } from '../money/paise';
import type { RuleChange } from './events';
import type { RuleFields } from './fields';
import { compilePattern } from './pattern';

/** What a rule reads of a transaction (a booked one or a statement row in a preview). */
export type RuleSubject = Readonly<{
  notes: string;
  rawNarration: string | null;
  amount: Paise;
  accountId: string | null;
  transactionType: 'C' | 'D';
}>;

/** A rule made ready to test many subjects: its pattern compiled once. */
export type RuleMatcher = (subject: RuleSubject) => boolean;

/** Every condition the rule sets holds (text and pattern: in the notes or the raw narration). */
export function ruleMatcher(rule: RuleFields): RuleMatcher {
  const text = rule.matchText?.toLocaleLowerCase('en-IN') ?? null;
  const pattern = rule.matchPattern ? compilePattern(rule.matchPattern) : null;
  return (s) => {
    if (rule.transactionType && s.transactionType !== rule.transactionType) return false;
    if (rule.accountId && s.accountId !== rule.accountId) return false;
    if (rule.amountMin != null && s.amount < rule.amountMin) return false;
    if (rule.amountMax != null && s.amount > rule.amountMax) return false;
    const texts = s.rawNarration === null ? [s.notes] : [s.notes, s.rawNarration];
    if (text !== null && !texts.some((t) => t.toLocaleLowerCase('en-IN').includes(text))) return false;
    if (pattern !== null && !texts.some(pattern)) return false;
    return true;
  };
}

/** What applying the rule to a matching transaction changes, or null when it already holds it. */
export function ruleChangeOf(
  rule: RuleFields,
  transaction: Readonly<{ id: string; categoryId: string | null; payee: string | null }>,
): RuleChange | null {
  const categoryId = rule.categoryId ?? transaction.categoryId;
  const payee = rule.payee ?? transaction.payee;
  if (categoryId === transaction.categoryId && payee === transaction.payee) return null;
  return {
    transactionId: transaction.id,
    categoryId,
    payee,
    previousCategoryId: transaction.categoryId,
    previousPayee: transaction.payee,
  };
}
