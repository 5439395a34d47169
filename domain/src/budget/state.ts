import { assertNever } from '../shared/messages';
import type { BudgetEvent, BudgetTerms } from './events';

export type BudgetState =
  | { status: 'none' }
  | {
      status: 'set';
      budgetId: string;
      userId: string;
      categoryId: string;
      categoryName: string;
      terms: BudgetTerms;
    }
  | { status: 'deleted'; budgetId: string; userId: string };

export const initialBudgetState = (): BudgetState => ({ status: 'none' });

export function evolveBudget(state: BudgetState, event: BudgetEvent): BudgetState {
  const { type, data } = event;
  switch (type) {
    case 'BudgetSet':
      return {
        status: 'set',
        budgetId: data.budgetId,
        userId: data.userId,
        categoryId: data.categoryId,
        categoryName: data.categoryName,
        terms: { amount: data.amount, rollover: data.rollover },
      };
    case 'BudgetChanged':
      return state.status === 'set' ? { ...state, terms: { ...state.terms, ...data.changes } } : state;
    case 'BudgetDeleted':
      return { status: 'deleted', budgetId: data.budgetId, userId: data.userId };
    default:
      return assertNever(type);
  }
}
