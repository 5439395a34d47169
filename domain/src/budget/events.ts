/**
 * Events of one budget's stream (`budget-{id}`, issue 31): a monthly amount for one expense
 * category, and whether what is left of a month rolls over into the next. Money in paise. A
 * change takes effect from the month it was made in (`fromMonth`, India): the months before keep
 * the amount they had, so a past month's status reads the same after it.
 */
import type { DomainEvent } from '../shared/messages';

/** What the user sets: the monthly amount and the rollover. */
export type BudgetTerms = { amount: number; rollover: boolean };

export type BudgetSet = DomainEvent<
  'BudgetSet',
  BudgetTerms & {
    budgetId: string;
    userId: string;
    categoryId: string;
    /** The category's name when the budget was set, for History. */
    categoryName: string;
    /** YYYY-MM: the first month the budget counts (rollover starts here). */
    startMonth: string;
    setAt: string;
  }
>;

export type BudgetChanged = DomainEvent<
  'BudgetChanged',
  {
    budgetId: string;
    userId: string;
    /** The new values of the terms that changed, and only those. */
    changes: Partial<BudgetTerms>;
    previous: BudgetTerms;
    /** YYYY-MM: the month from which the new terms count. */
    fromMonth: string;
    changedAt: string;
  }
>;

export type BudgetDeleted = DomainEvent<
  'BudgetDeleted',
  { budgetId: string; userId: string; categoryName: string; previous: BudgetTerms; deletedAt: string }
>;

export type BudgetEvent = BudgetSet | BudgetChanged | BudgetDeleted;

export const BUDGET_EVENT_TYPES = [
  'BudgetSet',
  'BudgetChanged',
  'BudgetDeleted',
] as const satisfies readonly BudgetEvent['type'][];

export const budgetStreamId = (budgetId: string): string => `budget-${budgetId}`;
