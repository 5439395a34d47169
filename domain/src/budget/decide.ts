import type { Decider } from '../shared/decider';
import { ConflictError, NotFoundError } from '../shared/errors';
import { assertNever, type Command } from '../shared/messages';
import type { BudgetEvent, BudgetTerms } from './events';
import { type BudgetState, evolveBudget, initialBudgetState } from './state';

/** A budget that is not the caller's (or none): the API's 404. */
export const BUDGET_NOT_FOUND = 'Budget not found';

type Ids = { budgetId: string; userId: string; now: string /** YYYY-MM in India. */; month: string };

/**
 * The route has checked the category is the user's own expense category without a budget (the
 * category tree and the other budgets are not in this stream) and parsed the terms.
 */
export type SetBudget = Command<
  'SetBudget',
  Ids & BudgetTerms & { categoryId: string; categoryName: string }
>;
export type ChangeBudget = Command<'ChangeBudget', Ids & BudgetTerms>;
export type DeleteBudget = Command<'DeleteBudget', Ids>;
export type BudgetCommand = SetBudget | ChangeBudget | DeleteBudget;

/** The owner's budget; anyone else's, a deleted one or a missing one is "not found". */
function owned(state: BudgetState, userId: string) {
  if (state.status !== 'set' || state.userId !== userId) throw new NotFoundError(BUDGET_NOT_FOUND);
  return state;
}

export function decideBudget(command: BudgetCommand, state: BudgetState): BudgetEvent[] {
  const { type, data } = command;
  const ids = { budgetId: data.budgetId, userId: data.userId };
  switch (type) {
    case 'SetBudget': {
      if (state.status !== 'none') throw new ConflictError('Budget already exists');
      const { categoryId, categoryName, amount, rollover } = data;
      return [
        {
          type: 'BudgetSet',
          data: {
            ...ids,
            categoryId,
            categoryName,
            amount,
            rollover,
            startMonth: data.month,
            setAt: data.now,
          },
        },
      ];
    }
    case 'ChangeBudget': {
      const current = owned(state, data.userId);
      const changes: Partial<BudgetTerms> = {};
      if (data.amount !== current.terms.amount) changes.amount = data.amount;
      if (data.rollover !== current.terms.rollover) changes.rollover = data.rollover;
      if (Object.keys(changes).length === 0) return [];
      return [
        {
          type: 'BudgetChanged',
          data: { ...ids, changes, previous: current.terms, fromMonth: data.month, changedAt: data.now },
        },
      ];
    }
    case 'DeleteBudget': {
      const current = owned(state, data.userId);
      return [
        {
          type: 'BudgetDeleted',
          data: { ...ids, categoryName: current.categoryName, previous: current.terms, deletedAt: data.now },
        },
      ];
    }
    default:
      return assertNever(type);
  }
}

export const budgetDecider: Decider<BudgetState, BudgetCommand, BudgetEvent> = {
  initialState: initialBudgetState,
  evolve: evolveBudget,
  decide: decideBudget,
};
