import { assertNever } from '../shared/messages';
import type { CategoryEvent, CategoryNode } from './events';

/** The user's live categories by id (`none` before the seed). */
export type CategoryState =
  | { status: 'none' }
  | { status: 'seeded'; userId: string; categories: ReadonlyMap<string, CategoryNode> };

export const initialCategoryState = (): CategoryState => ({ status: 'none' });

function withNode(state: CategoryState, id: string, change: (node: CategoryNode) => CategoryNode) {
  if (state.status !== 'seeded') return state;
  const node = state.categories.get(id);
  if (!node) return state;
  const categories = new Map(state.categories);
  categories.set(id, change(node));
  return { ...state, categories };
}

function without(state: CategoryState, id: string): CategoryState {
  if (state.status !== 'seeded') return state;
  const categories = new Map(state.categories);
  categories.delete(id);
  return { ...state, categories };
}

export function evolveCategories(state: CategoryState, event: CategoryEvent): CategoryState {
  const { type, data } = event;
  switch (type) {
    case 'CategoriesSeeded':
      return {
        status: 'seeded',
        userId: data.userId,
        categories: new Map(data.categories.map((c) => [c.categoryId, c])),
      };
    case 'CategoryCreated': {
      if (state.status !== 'seeded') return state;
      const { categoryId, name, kind, parentId, systemKey, position } = data;
      const categories = new Map(state.categories);
      categories.set(categoryId, { categoryId, name, kind, parentId, systemKey, position });
      return { ...state, categories };
    }
    case 'CategoryRenamed':
      return withNode(state, data.categoryId, (node) => ({ ...node, name: data.name }));
    case 'CategoryMoved':
      return withNode(state, data.categoryId, (node) => ({
        ...node,
        parentId: data.parentId,
        position: data.position,
      }));
    case 'CategoryMerged':
    case 'CategoryDeleted':
      return without(state, data.categoryId);
    default:
      return assertNever(type);
  }
}
