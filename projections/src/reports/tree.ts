import { LOAN_EMI_KEY, type Paise } from '@kosh/domain';
import type { CategorySpend, ReportCategory } from './spending';

/**
 * One row of the spending report: a top-level category with what it and its subcategories spent
 * (rolled up), or a subcategory. `id` null: the uncategorised debits, or the loans' payments when
 * the user has no Loan EMI category yet.
 */
export type SpendingNode = Readonly<{
  id: string | null;
  name: string;
  /** What this category spent itself, subcategories apart. */
  ownAmount: Paise;
  /** Itself and its subcategories. */
  amount: Paise;
  count: number;
  children: readonly SpendingNode[];
}>;

export const UNCATEGORISED = 'Uncategorised';
export const LOAN_EMI_NAME = 'Loan EMI';

type Mutable = {
  id: string | null;
  name: string;
  ownAmount: Paise;
  count: number;
  children: Map<string, Mutable>;
};

const byAmount = (a: SpendingNode, b: SpendingNode) => b.amount - a.amount || a.name.localeCompare(b.name);

function freeze(node: Mutable): SpendingNode {
  const children = [...node.children.values()].map(freeze).filter((c) => c.amount !== 0 || c.count > 0);
  children.sort(byAmount);
  const amount = children.reduce((sum, c) => sum + c.amount, node.ownAmount);
  const count = children.reduce((sum, c) => sum + c.count, node.count);
  return { id: node.id, name: node.name, ownAmount: node.ownAmount, amount, count, children };
}

/**
 * The category tree with each category's spending rolled up to its parent: top-level rows by
 * amount (largest first), each with its subcategories. Loan payments count under the system's
 * Loan EMI category; debits in no category (or one since deleted) under "Uncategorised".
 */
export function rollUpSpending(
  categories: readonly ReportCategory[],
  spends: readonly CategorySpend[],
  loanPayments: Readonly<{ amount: Paise; count: number }>,
): { total: Paise; rows: SpendingNode[] } {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const tops = new Map<string, Mutable>();
  const top = (key: string, id: string | null, name: string) => {
    let node = tops.get(key);
    if (!node) {
      node = { id, name, ownAmount: 0, count: 0, children: new Map() };
      tops.set(key, node);
    }
    return node;
  };
  const add = (categoryId: string | null, amount: Paise, count: number) => {
    const category = categoryId === null ? undefined : byId.get(categoryId);
    if (!category) {
      const node = top('', null, UNCATEGORISED);
      node.ownAmount += amount;
      node.count += count;
      return;
    }
    const parent = category.parentId === null ? undefined : byId.get(category.parentId);
    if (!parent) {
      const node = top(category.id, category.id, category.name);
      node.ownAmount += amount;
      node.count += count;
      return;
    }
    const holder = top(parent.id, parent.id, parent.name);
    let child = holder.children.get(category.id);
    if (!child) {
      child = { id: category.id, name: category.name, ownAmount: 0, count: 0, children: new Map() };
      holder.children.set(category.id, child);
    }
    child.ownAmount += amount;
    child.count += count;
  };
  for (const spend of spends) add(spend.categoryId, spend.amount, spend.count);
  if (loanPayments.count > 0) {
    const loanEmi = categories.find((c) => c.systemKey === LOAN_EMI_KEY);
    if (loanEmi) add(loanEmi.id, loanPayments.amount, loanPayments.count);
    else {
      const node = top(LOAN_EMI_KEY, null, LOAN_EMI_NAME);
      node.ownAmount += loanPayments.amount;
      node.count += loanPayments.count;
    }
  }
  const rows = [...tops.values()].map(freeze).filter((r) => r.amount !== 0 || r.count > 0);
  rows.sort(byAmount);
  return { total: rows.reduce((sum, r) => sum + r.amount, 0), rows };
}
