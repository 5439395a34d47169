import { type Paise, type RuleFields, toDecimalString, toPaise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { likePattern, searchCondition } from '../transactions/queries';

/** A transaction of the book as a rule reads and changes it. */
export type RuleCandidate = Readonly<{
  id: string;
  transactionDate: string;
  notes: string;
  rawNarration: string | null;
  amount: Paise;
  accountId: string | null;
  transactionType: 'C' | 'D';
  categoryId: string | null;
  payee: string | null;
}>;

/**
 * The user's transactions that may match the rule, newest first: its type, account, amounts and
 * text narrow them in SQL; the pattern (and every condition again) is the caller's to test
 * (`ruleMatcher`), so the SQL only has to hold every match, never to judge one.
 */
export async function ruleCandidates(
  db: Queryable,
  userId: string,
  rule: RuleFields,
): Promise<RuleCandidate[]> {
  const params: unknown[] = [userId];
  const where = ['user_id = $1'];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (rule.transactionType) add((p) => `transaction_type = ${p}`, rule.transactionType);
  if (rule.accountId) add((p) => `account_id = ${p}::uuid`, rule.accountId);
  if (rule.amountMin != null) add((p) => `amount >= ${p}::numeric`, toDecimalString(rule.amountMin));
  if (rule.amountMax != null) add((p) => `amount <= ${p}::numeric`, toDecimalString(rule.amountMax));
  // The book's search (notes or raw narration), through the same indexes.
  const text = rule.matchText;
  if (text) add((p) => searchCondition(text, p), likePattern(text));
  const { rows } = await db.query<{
    id: string;
    transaction_date: string;
    notes: string;
    raw_narration: string | null;
    amount: string;
    account_id: string | null;
    transaction_type: 'C' | 'D';
    category_id: string | null;
    payee: string | null;
  }>(
    `SELECT id::text AS id, to_char(transaction_date, 'YYYY-MM-DD') AS transaction_date, notes, raw_narration,
            amount::text AS amount, account_id::text AS account_id, transaction_type,
            category_id::text AS category_id, payee
       FROM transactions WHERE ${where.join(' AND ')}
      ORDER BY transaction_date DESC, created_at DESC, id`,
    params,
  );
  return rows.map((r) => ({
    id: r.id,
    transactionDate: r.transaction_date,
    notes: r.notes,
    rawNarration: r.raw_narration,
    amount: toPaise(r.amount),
    accountId: r.account_id,
    transactionType: r.transaction_type,
    categoryId: r.category_id,
    payee: r.payee,
  }));
}
