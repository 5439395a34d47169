import type * as wire from '@kosh/contract';
import { api } from '../api/baseApi';
import { idempotencyHeaders } from '../api/idempotency';

export type Category = wire.WireCategory;
export type CategoryKind = Category['kind'];

export type CategoryBody = { name: string; kind?: CategoryKind | null; parent_id: string | null };
export type CategoryUpdateBody = { name?: string; parent_id?: string | null };

/** A category's change shows in the tree, and a merge or delete in the book too. */
const treeChanged = [{ type: 'Category', id: 'LIST' }] as const;
const bookChanged = [...treeChanged, { type: 'Transaction', id: 'LIST' }, 'History'] as const;

export const categoriesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCategories: build.query<Category[], void>({
      extraOptions: { errorFallback: 'Failed to load categories' },
      query: () => ({ url: '/categories' }),
      transformResponse: (answer: wire.CategoryListResponse) => answer.data.categories,
      providesTags: [{ type: 'Category', id: 'LIST' }],
    }),
    createCategory: build.mutation<wire.CategoryResponse, { body: CategoryBody; idempotencyKey: string }>({
      extraOptions: { errorFallback: 'Failed to add category' },
      query: ({ body, idempotencyKey }) => ({
        url: '/categories',
        method: 'POST',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: [...treeChanged],
    }),
    updateCategory: build.mutation<wire.CategoryResponse, { id: string; body: CategoryUpdateBody }>({
      extraOptions: { errorFallback: 'Failed to update category' },
      query: ({ id, body }) => ({ url: `/categories/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: [...treeChanged],
    }),
    mergeCategory: build.mutation<wire.CategoryResponse, { id: string; intoId: string }>({
      extraOptions: { errorFallback: 'Failed to merge categories' },
      query: ({ id, intoId }) => ({
        url: `/categories/${encodeURIComponent(id)}/merge`,
        method: 'POST',
        body: { into_id: intoId },
      }),
      invalidatesTags: [...bookChanged],
    }),
    deleteCategory: build.mutation<wire.MessageResponse, { id: string; moveTo: string | null }>({
      extraOptions: { errorFallback: 'Failed to delete category' },
      query: ({ id, moveTo }) => ({
        url: `/categories/${encodeURIComponent(id)}`,
        method: 'DELETE',
        params: moveTo ? { move_to: moveTo } : {},
      }),
      invalidatesTags: [...bookChanged],
    }),
  }),
});

export const {
  useGetCategoriesQuery,
  useCreateCategoryMutation,
  useUpdateCategoryMutation,
  useMergeCategoryMutation,
  useDeleteCategoryMutation,
} = categoriesApi;

/** "Food › Groceries": a category as a select or a cell names it. */
export function categoryLabel(category: Category, all: readonly Category[]): string {
  const parent = category.parent_id ? all.find((c) => c.id === category.parent_id) : undefined;
  return parent ? `${parent.name} › ${category.name}` : category.name;
}

/** The options of a category select: income, then expense, each parent followed by its children. */
export function categoryOptions(
  all: readonly Category[],
  kind?: CategoryKind,
): { value: string; label: string }[] {
  return all
    .filter((c) => kind === undefined || c.kind === kind)
    .map((c) => ({
      value: c.id,
      label: `${c.kind === 'income' ? 'Income' : 'Expense'} · ${categoryLabel(c, all)}`,
    }));
}
