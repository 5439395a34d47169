import { describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../shared/errors';
import { DeciderSpecification } from '../testing/decider-specification';
import { CATEGORY_MESSAGES, categoryDecider, seededCategories } from './decide';
import type { CategoryEvent } from './events';
import { CATEGORY_SEEDS, LOAN_EMI_KEY } from './seed';

const userId = 'b7e1a4c2-5f6d-4e3a-8b9c-0d1e2f3a4b5c';
const now = '2026-01-01T00:00:00.000Z';
const seedIds = CATEGORY_SEEDS.map((_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
const idOf = (key: string) => seedIds[CATEGORY_SEEDS.findIndex((s) => s.key === key)] as string;
const seeded: CategoryEvent = {
  type: 'CategoriesSeeded',
  data: { userId, categories: seededCategories(seedIds), seededAt: now },
};
const base = { userId, seedIds, now };
const given = DeciderSpecification.for(categoryDecider);
const refusal = (field: string, message: string) => (e: ValidationError) =>
  expect(e.errors).toEqual([{ field, message }]);

describe('the category tree', () => {
  it('seeds a two-level tree once: parents before children, positions per sibling group', () => {
    const nodes = seededCategories(seedIds);
    const food = nodes.find((n) => n.systemKey === 'food');
    expect(nodes.find((n) => n.systemKey === 'dining-out')).toMatchObject({
      parentId: food?.categoryId,
      position: 1,
    });
    expect(
      nodes.every(
        (n) => n.parentId === null || nodes.find((p) => p.categoryId === n.parentId)?.parentId === null,
      ),
    ).toBe(true);
    given([]).when({ type: 'SeedCategories', data: base }).then([seeded]);
    given([seeded]).when({ type: 'SeedCategories', data: base }).then([]);
  });

  it('seeds first when a command comes to a tree never seeded', () => {
    const id = '11111111-1111-4111-8111-111111111111';
    given([])
      .when({
        type: 'CreateCategory',
        data: { ...base, categoryId: id, name: ' Pets ', kind: 'expense', parentId: null },
      })
      .then([
        seeded,
        {
          type: 'CategoryCreated',
          data: {
            userId,
            categoryId: id,
            name: 'Pets',
            kind: 'expense',
            parentId: null,
            systemKey: null,
            position: 7,
            createdAt: now,
          },
        },
      ]);
  });

  it('refuses a cycle, a third level, another kind, a taken name; keeps the system category', () => {
    const move = (categoryId: string, parentId: string | null) =>
      given([seeded]).when({ type: 'UpdateCategory', data: { ...base, categoryId, parentId } });
    move(idOf('food'), idOf('groceries')).thenThrows(
      ValidationError,
      refusal('parent_id', CATEGORY_MESSAGES.cycle),
    );
    move(idOf('food'), idOf('food')).thenThrows(
      ValidationError,
      refusal('parent_id', CATEGORY_MESSAGES.cycle),
    );
    move(idOf('food'), idOf('home')).thenThrows(
      ValidationError,
      refusal('parent_id', CATEGORY_MESSAGES.thirdLevel),
    );
    move(idOf('fuel'), idOf('groceries')).thenThrows(
      ValidationError,
      refusal('parent_id', CATEGORY_MESSAGES.thirdLevel),
    );
    move(idOf('fuel'), idOf('salary')).thenThrows(
      ValidationError,
      refusal('parent_id', CATEGORY_MESSAGES.parentKind),
    );
    move(idOf(LOAN_EMI_KEY), idOf('home')).thenThrows(
      ValidationError,
      refusal('id', CATEGORY_MESSAGES.system),
    );
    given([seeded])
      .when({ type: 'UpdateCategory', data: { ...base, categoryId: idOf('fuel'), name: 'TRAVEL' } })
      .thenThrows(ValidationError, refusal('name', CATEGORY_MESSAGES.nameTaken));
    move(idOf('fuel'), idOf('food')).then([
      {
        type: 'CategoryMoved',
        data: {
          userId,
          categoryId: idOf('fuel'),
          parentId: idOf('food'),
          position: 2,
          previousParentId: idOf('transport'),
          previousPosition: 0,
          movedAt: now,
        },
      },
    ]);
  });

  it('merges and deletes into a category of the same kind; never the system one; 404 for anyone else', () => {
    given([seeded])
      .when({ type: 'MergeCategory', data: { ...base, categoryId: idOf('fuel'), intoId: idOf('salary') } })
      .thenThrows(ValidationError, refusal('into_id', CATEGORY_MESSAGES.targetKind));
    given([seeded])
      .when({ type: 'DeleteCategory', data: { ...base, categoryId: idOf(LOAN_EMI_KEY), moveTo: null } })
      .thenThrows(ValidationError, refusal('id', CATEGORY_MESSAGES.system));
    given([seeded])
      .when({ type: 'DeleteCategory', data: { ...base, categoryId: idOf('fuel'), moveTo: idOf('travel') } })
      .then([
        {
          type: 'CategoryDeleted',
          data: {
            userId,
            categoryId: idOf('fuel'),
            name: 'Fuel',
            moveTo: idOf('travel'),
            moveToName: 'Travel',
            deletedAt: now,
          },
        },
      ]);
    given([seeded])
      .when({
        type: 'DeleteCategory',
        data: { ...base, userId: 'intruder', categoryId: idOf('fuel'), moveTo: null },
      })
      .thenThrows(NotFoundError);
  });
});
