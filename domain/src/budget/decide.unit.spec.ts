import { describe, it } from 'vitest';
import { ConflictError, NotFoundError } from '../shared/errors';
import { DeciderSpecification } from '../testing/decider-specification';
import { budgetDecider } from './decide';
import type { BudgetEvent } from './events';

const given = DeciderSpecification.for(budgetDecider);
const budgetId = '5b0d8f4e-0000-4000-8000-00000000000b';
const userId = '6f1c2d7e-0000-4000-8000-000000000001';
const categoryId = '7a1c2d7e-0000-4000-8000-000000000002';
const now = '2026-02-10T04:00:00.000Z';
const ids = { budgetId, userId, now, month: '2026-02' };
const set: BudgetEvent = {
  type: 'BudgetSet',
  data: {
    budgetId,
    userId,
    categoryId,
    categoryName: 'Food',
    amount: 1000000,
    rollover: false,
    startMonth: '2026-01',
    setAt: '2026-01-05T04:00:00.000Z',
  },
};

describe('budget decider', () => {
  it('sets a budget from the month it is set in', () => {
    given([])
      .when({
        type: 'SetBudget',
        data: { ...ids, categoryId, categoryName: 'Food', amount: 1000000, rollover: false },
      })
      .then([{ ...set, data: { ...set.data, startMonth: '2026-02', setAt: now } }]);
    given([set])
      .when({
        type: 'SetBudget',
        data: { ...ids, categoryId, categoryName: 'Food', amount: 1, rollover: false },
      })
      .thenThrows(ConflictError);
  });

  it('records only what changed, from the month of the change', () => {
    given([set])
      .when({ type: 'ChangeBudget', data: { ...ids, amount: 800000, rollover: false } })
      .then([
        {
          type: 'BudgetChanged',
          data: {
            budgetId,
            userId,
            changes: { amount: 800000 },
            previous: { amount: 1000000, rollover: false },
            fromMonth: '2026-02',
            changedAt: now,
          },
        },
      ]);
    given([set])
      .when({ type: 'ChangeBudget', data: { ...ids, amount: 1000000, rollover: false } })
      .then([]);
  });

  it("answers another user's, a deleted or a missing budget as not found", () => {
    const other = { ...ids, userId: '6f1c2d7e-0000-4000-8000-000000000009' };
    given([set]).when({ type: 'DeleteBudget', data: other }).thenThrows(NotFoundError);
    given([])
      .when({ type: 'ChangeBudget', data: { ...ids, amount: 1, rollover: true } })
      .thenThrows(NotFoundError);
    const deleted: BudgetEvent = {
      type: 'BudgetDeleted',
      data: {
        budgetId,
        userId,
        categoryName: 'Food',
        previous: { amount: 1000000, rollover: false },
        deletedAt: now,
      },
    };
    given([set]).when({ type: 'DeleteBudget', data: ids }).then([deleted]);
    given([set, deleted]).when({ type: 'DeleteBudget', data: ids }).thenThrows(NotFoundError);
  });
});
