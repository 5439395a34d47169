import {
  type FieldError,
  isCalendarDate,
  isUuid,
  TRANSACTION_TYPES,
  type TransactionType,
} from '@kosh/domain';
import {
  type SortOrder,
  TRANSACTION_SORT_KEYS,
  type TransactionListQuery,
  type TransactionSortKey,
} from '@kosh/projections';

export const LIST_QUERY_MESSAGES = {
  page: 'Page must be a whole number of at least 1',
  limit: 'Limit must be a whole number from 1 to 100',
  search: 'Search must not exceed 255 characters',
  transactionType: 'Invalid transaction type',
  date: 'Date must be a valid date (YYYY-MM-DD)',
  sortBy: `Sort by must be one of ${TRANSACTION_SORT_KEYS.join(', ')}`,
  sortOrder: 'Sort order must be ASC or DESC',
  accountId: "Account must be an account's id or none",
  categoryId: "Category must be a category's id or none",
} as const;

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
const MAX_PAGE = 1_000_000_000;

type Raw = Partial<Record<string, string | undefined>>;

/** Empty values count as absent (the screen omits them; a hand-written URL may not). */
const present = (value: string | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

function wholeNumber(text: string, min: number, max: number): number | null {
  if (!/^\d{1,10}$/.test(text)) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}

/**
 * GET /api/transactions query → the read model's query, or every bad parameter with its message
 * (422). Nothing the caller sends reaches SQL as text except the search pattern, as a parameter.
 */
export function parseTransactionListQuery(
  raw: Raw,
): { ok: true; value: TransactionListQuery } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => {
    errors.push({ field, message });
    return null;
  };

  const pageText = present(raw.page);
  const page =
    pageText === null ? 1 : (wholeNumber(pageText, 1, MAX_PAGE) ?? fail('page', LIST_QUERY_MESSAGES.page));
  const limitText = present(raw.limit);
  const limit =
    limitText === null
      ? DEFAULT_LIMIT
      : (wholeNumber(limitText, 1, MAX_LIMIT) ?? fail('limit', LIST_QUERY_MESSAGES.limit));

  const search = present(raw.search);
  if (search !== null && [...search].length > 255) fail('search', LIST_QUERY_MESSAGES.search);

  const typeText = present(raw.transaction_type);
  const transactionType =
    typeText === null
      ? null
      : TRANSACTION_TYPES.includes(typeText.toUpperCase() as TransactionType)
        ? (typeText.toUpperCase() as TransactionType)
        : fail('transaction_type', LIST_QUERY_MESSAGES.transactionType);

  const date = (field: 'date_from' | 'date_to') => {
    const text = present(raw[field]);
    if (text === null) return null;
    return isCalendarDate(text) ? text : fail(field, LIST_QUERY_MESSAGES.date);
  };
  const dateFrom = date('date_from');
  const dateTo = date('date_to');

  const sortText = present(raw.sort_by);
  const sortBy =
    sortText === null
      ? 'transaction_date'
      : TRANSACTION_SORT_KEYS.includes(sortText as TransactionSortKey)
        ? (sortText as TransactionSortKey)
        : fail('sort_by', LIST_QUERY_MESSAGES.sortBy);

  const orderText = present(raw.sort_order)?.toUpperCase() ?? 'DESC';
  const sortOrder =
    orderText === 'ASC' || orderText === 'DESC'
      ? (orderText as SortOrder)
      : fail('sort_order', LIST_QUERY_MESSAGES.sortOrder);

  const accountText = present(raw.account_id)?.toLowerCase() ?? null;
  const accountId =
    accountText === null || accountText === 'none' || isUuid(accountText)
      ? accountText
      : fail('account_id', LIST_QUERY_MESSAGES.accountId);

  const categoryText = present(raw.category_id)?.toLowerCase() ?? null;
  const categoryId =
    categoryText === null || categoryText === 'none' || isUuid(categoryText)
      ? categoryText
      : fail('category_id', LIST_QUERY_MESSAGES.categoryId);

  if (errors.length > 0 || page === null || limit === null || sortBy === null || sortOrder === null) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    value: {
      page,
      limit,
      search,
      transactionType,
      dateFrom,
      dateTo,
      sortBy,
      sortOrder,
      ...(accountId !== null && { accountId }),
      ...(categoryId !== null && { categoryId }),
    },
  };
}
