import { fieldTable, type RecordOf } from '../shared/field-table';

/**
 * A categorisation rule (issue 31), declared once (see `fieldTable`): "notes or raw narration
 * contains … (or matches a pattern), amount between …, account …, type … → category, payee".
 * Every condition is optional but at least one is set; a rule sets a category, a payee or both.
 * Money in paise.
 */
export const RULE_FIELDS = fieldTable({
  name: { wire: 'name', kind: 'text', label: 'Name' },
  /** Case-insensitive text the notes or the raw narration contain. */
  matchText: { wire: 'match_text', kind: 'text', label: 'Text contains', nullable: true },
  /** A pattern (RE2 syntax, case-insensitive) the notes or the raw narration match. */
  matchPattern: { wire: 'match_pattern', kind: 'text', label: 'Pattern', nullable: true },
  amountMin: { wire: 'amount_min', kind: 'money', label: 'Amount from', nullable: true },
  amountMax: { wire: 'amount_max', kind: 'money', label: 'Amount to', nullable: true },
  accountId: { wire: 'account_id', kind: 'ref', label: 'Account', nullable: true },
  transactionType: {
    wire: 'transaction_type',
    kind: 'code',
    values: ['C', 'D'],
    label: 'Type',
    nullable: true,
  },
  categoryId: { wire: 'category_id', kind: 'ref', label: 'Category', nullable: true },
  payee: { wire: 'payee', kind: 'text', label: 'Payee', nullable: true },
});

/** The validated values of a rule (`RULE_FIELDS`), money in paise. */
export type RuleFields = RecordOf<typeof RULE_FIELDS>;
