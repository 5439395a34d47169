/**
 * The categories every user starts with (issue 31): a two-level tree of an Indian household's
 * income and expense. `key` names a seed among the user's categories (the read model's
 * `system_key`); `parent` is the key of its parent. "Loan EMI" is the system's: matched EMIs are
 * counted under it, so it is never deleted, merged away or moved.
 */
export type CategoryKind = 'income' | 'expense';
export const CATEGORY_KINDS = ['income', 'expense'] as const satisfies readonly CategoryKind[];

export type CategorySeed = Readonly<{ key: string; name: string; kind: CategoryKind; parent?: string }>;

/** The key of the category the system keeps for matched EMIs. */
export const LOAN_EMI_KEY = 'loan-emi';

/** Keys whose category the user may not delete, merge away, move or rename. */
export const SYSTEM_CATEGORY_KEYS: ReadonlySet<string> = new Set([LOAN_EMI_KEY]);

export const CATEGORY_SEEDS: readonly CategorySeed[] = [
  { key: 'salary', name: 'Salary', kind: 'income' },
  { key: 'interest', name: 'Interest', kind: 'income' },
  { key: 'rent-received', name: 'Rent received', kind: 'income' },
  { key: 'other-income', name: 'Other income', kind: 'income' },
  { key: 'home', name: 'Home', kind: 'expense' },
  { key: 'rent', name: 'Rent', kind: 'expense', parent: 'home' },
  { key: 'electricity', name: 'Electricity', kind: 'expense', parent: 'home' },
  { key: 'water-gas', name: 'Water & gas', kind: 'expense', parent: 'home' },
  { key: 'mobile-internet', name: 'Mobile & internet', kind: 'expense', parent: 'home' },
  { key: 'household-help', name: 'Household help', kind: 'expense', parent: 'home' },
  { key: 'food', name: 'Food', kind: 'expense' },
  { key: 'groceries', name: 'Groceries', kind: 'expense', parent: 'food' },
  { key: 'dining-out', name: 'Dining out', kind: 'expense', parent: 'food' },
  { key: 'transport', name: 'Transport', kind: 'expense' },
  { key: 'fuel', name: 'Fuel', kind: 'expense', parent: 'transport' },
  { key: 'travel', name: 'Travel', kind: 'expense', parent: 'transport' },
  { key: 'health-education', name: 'Health & education', kind: 'expense' },
  { key: 'medical', name: 'Medical', kind: 'expense', parent: 'health-education' },
  { key: 'education', name: 'Education', kind: 'expense', parent: 'health-education' },
  { key: 'finance', name: 'Money matters', kind: 'expense' },
  { key: 'insurance', name: 'Insurance', kind: 'expense', parent: 'finance' },
  { key: 'investments', name: 'Investments/SIP', kind: 'expense', parent: 'finance' },
  { key: 'taxes', name: 'Taxes', kind: 'expense', parent: 'finance' },
  { key: 'bank-charges', name: 'Bank charges', kind: 'expense', parent: 'finance' },
  { key: 'lifestyle', name: 'Lifestyle', kind: 'expense' },
  { key: 'shopping', name: 'Shopping', kind: 'expense', parent: 'lifestyle' },
  { key: 'festivals-gifts', name: 'Festivals & gifts', kind: 'expense', parent: 'lifestyle' },
  { key: LOAN_EMI_KEY, name: 'Loan EMI', kind: 'expense' },
];
