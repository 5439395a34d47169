import { describe, expect, it } from 'vitest';
import type { ReportCategory } from './spending';
import { rollUpSpending } from './tree';

const category = (
  id: string,
  name: string,
  parentId: string | null = null,
  systemKey: string | null = null,
) => ({ id, name, kind: 'expense', parentId, systemKey, position: 0 }) satisfies ReportCategory;

const food = category('food', 'Food');
const groceries = category('groceries', 'Groceries', 'food');
const dining = category('dining', 'Dining out', 'food');
const rent = category('rent', 'Rent');
const loanEmi = category('emi', 'Loan EMI', null, 'loan-emi');

describe('spending rolled up the category tree', () => {
  it("adds subcategories into their parent, largest first, and keeps the parent's own debits apart", () => {
    const { total, rows } = rollUpSpending(
      [food, groceries, dining, rent],
      [
        { categoryId: 'groceries', amount: 500000, count: 4 },
        { categoryId: 'dining', amount: 120050, count: 2 },
        { categoryId: 'food', amount: 10000, count: 1 },
        { categoryId: 'rent', amount: 2500000, count: 1 },
      ],
      { amount: 0, count: 0 },
    );
    expect(total).toBe(3130050);
    expect(rows.map((r) => [r.name, r.amount, r.count])).toEqual([
      ['Rent', 2500000, 1],
      ['Food', 630050, 7],
    ]);
    expect(rows[1]?.ownAmount).toBe(10000);
    expect(rows[1]?.children.map((c) => [c.name, c.amount])).toEqual([
      ['Groceries', 500000],
      ['Dining out', 120050],
    ]);
  });

  it('puts debits of no category, or of one since deleted, under Uncategorised', () => {
    const { rows } = rollUpSpending(
      [rent],
      [
        { categoryId: null, amount: 300, count: 1 },
        { categoryId: 'gone', amount: 700, count: 2 },
      ],
      { amount: 0, count: 0 },
    );
    expect(rows).toEqual([
      { id: null, name: 'Uncategorised', ownAmount: 1000, amount: 1000, count: 3, children: [] },
    ]);
  });

  it("counts the loans' payments under the system's Loan EMI, or a Loan EMI row of its own", () => {
    const payments = { amount: 1066185, count: 1 };
    expect(rollUpSpending([loanEmi], [], payments).rows[0]).toMatchObject({ id: 'emi', amount: 1066185 });
    expect(rollUpSpending([], [], payments).rows[0]).toMatchObject({
      id: null,
      name: 'Loan EMI',
      amount: 1066185,
    });
  });
});
