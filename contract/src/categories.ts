import { type Static, Type } from 'typebox';
import { MessageResponse, success } from './envelope';
import { IdParams, Loose, QueryText } from './request';

/**
 * Categories (issue 31): a two-level tree of income and expense categories per user, seeded
 * with an Indian household set on first use. Body fields are loose at the schema level so a bad
 * value gets its own per-field message (domain/src/category/decide.ts).
 */
export const CategoryBody = Type.Object({
  name: Loose('At most 60 characters, unique among its siblings'),
  kind: Loose('income or expense (POST only; a subcategory takes its parent’s)'),
  parent_id: Loose('A top-level category of the same kind, or null for top level'),
});
export type CategoryBody = Static<typeof CategoryBody>;

/** PUT: rename and/or move; a field left out is unchanged. */
export const CategoryUpdateBody = Type.Object({
  name: Loose('At most 60 characters, unique among its siblings'),
  parent_id: Loose('A top-level category of the same kind, or null for top level'),
});
export type CategoryUpdateBody = Static<typeof CategoryUpdateBody>;

export const CategoryMergeBody = Type.Object({
  into_id: Loose('The category that takes this one’s transactions (same kind)'),
});
export type CategoryMergeBody = Static<typeof CategoryMergeBody>;

/** DELETE: `move_to` in the query (or the body); left out, its transactions are left uncategorised. */
export const CategoryDeleteQuery = Type.Object({
  move_to: QueryText('The category that takes its transactions (same kind); left out: none'),
});
export type CategoryDeleteQuery = Static<typeof CategoryDeleteQuery>;
export const CategoryDeleteBody = Type.Union([
  Type.Object({ move_to: Loose('The category that takes its transactions (same kind)') }),
  Type.Null(),
]);

export const CategoryKindWire = Type.Unsafe<'income' | 'expense'>({
  type: 'string',
  enum: ['income', 'expense'],
});

export const WireCategory = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: CategoryKindWire,
  parent_id: Type.Union([Type.String(), Type.Null()]),
  /** The seed's key for a seeded category (`loan-emi`: the system's), else null. */
  system_key: Type.Union([Type.String(), Type.Null()]),
  /** True for a category the system keeps (Loan EMI): not renamed, moved, merged or deleted. */
  system: Type.Boolean(),
  position: Type.Integer(),
  transaction_count: Type.Integer({ description: 'Transactions in this category (not its subcategories)' }),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type WireCategory = Static<typeof WireCategory>;

export const CategoryParams = IdParams;

/** Every category, parents first then their children, each group by position. */
export const CategoryListResponse = success(Type.Object({ categories: Type.Array(WireCategory) }));
export type CategoryListResponse = Static<typeof CategoryListResponse>;
export const CategoryResponse = success(Type.Object({ category: WireCategory }));
export type CategoryResponse = Static<typeof CategoryResponse>;
export const CategoryDeletedResponse = MessageResponse;
