import type { ImportPreviewRow } from '@kosh/domain';
import { ruleMatcher } from '@kosh/domain/rule-engine';
import type { Queryable } from '@kosh/event-store';
import { listRules } from '@kosh/projections';

/** What the user's rules propose for a statement row (issue 31): the first rule setting each wins. */
export type RuleProposal = Readonly<{ categoryId: string | null; payee: string | null }>;

/**
 * The proposals of the user's rules for rows of a statement of `accountId`: rules are tried
 * oldest first; the category comes from the first matching rule that sets one, the payee likewise.
 * Rows are judged as the transactions they would record (type from the sign, amount unsigned).
 */
export async function ruleProposer(
  db: Queryable,
  userId: string,
  accountId: string,
): Promise<(row: ImportPreviewRow) => RuleProposal | null> {
  const rules = (await listRules(db, userId)).map((rule) => ({ rule, matches: ruleMatcher(rule) }));
  if (rules.length === 0) return () => null;
  return (row) => {
    if (row.amount === 0) return null;
    const subject = {
      notes: row.notes,
      rawNarration: row.narration,
      amount: Math.abs(row.amount),
      accountId,
      transactionType: row.amount > 0 ? ('C' as const) : ('D' as const),
    };
    let categoryId: string | null = null;
    let payee: string | null = null;
    for (const { rule, matches } of rules) {
      if ((categoryId === null || payee === null) && matches(subject)) {
        categoryId ??= rule.categoryId ?? null;
        payee ??= rule.payee ?? null;
      }
    }
    return categoryId === null && payee === null ? null : { categoryId, payee };
  };
}

/** The category and payee an imported row records from its proposal (only those set). */
export function proposalOf(proposal: RuleProposal | null): { categoryId?: string; payee?: string } {
  return {
    ...(proposal?.categoryId && { categoryId: proposal.categoryId }),
    ...(proposal?.payee && { payee: proposal.payee }),
  };
}
