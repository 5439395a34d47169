import type { FieldError } from '@kosh/domain';
import {
  BANK_SORT_KEYS,
  type BankListQuery,
  type BankSortKey,
  LOAN_PAGE_SIZES,
  LOAN_SORT_KEYS,
  type LoanListQuery,
  type LoanSortKey,
} from '@kosh/projections';

export const LOAN_QUERY_MESSAGES = {
  page: 'Page must be a whole number of at least 1',
  loanLimit: `Limit must be one of ${LOAN_PAGE_SIZES.join(', ')}`,
  bankLimit: 'Limit must be a whole number from 1 to 100',
  loanSortBy: `Sort by must be one of ${LOAN_SORT_KEYS.join(', ')}`,
  bankSortBy: `Sort by must be one of ${BANK_SORT_KEYS.join(', ')}`,
  sortOrder: 'Sort order must be ASC or DESC',
  search: 'Search cannot exceed 100 characters',
  bankId: 'Please select a valid bank',
  loanTypeId: 'Please select a valid loan type',
} as const;

const MAX_PAGE = 1_000_000;

type Raw = Partial<Record<string, string | undefined>>;
type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

const present = (value: string | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

function wholeNumber(text: string | null, min: number, max: number): number | null {
  if (text === null || !/^\d{1,10}$/.test(text)) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}

/** Shared page / sort parsing: absent values take the defaults; bad ones are reported per field. */
function pageAndOrder<K extends string>(
  raw: Raw,
  errors: FieldError[],
  options: {
    limitOk: (n: number) => boolean;
    limitMessage: string;
    defaultLimit: number;
    sortKeys: readonly K[];
    sortMessage: string;
    defaultSort: K;
    defaultOrder: 'ASC' | 'DESC';
  },
) {
  const fail = (field: string, message: string) => {
    errors.push({ field, message });
    return null;
  };
  const pageText = present(raw.page);
  const page =
    pageText === null ? 1 : (wholeNumber(pageText, 1, MAX_PAGE) ?? fail('page', LOAN_QUERY_MESSAGES.page));
  const limitText = present(raw.limit);
  const limitNumber = wholeNumber(limitText, 1, 1000);
  const limit =
    limitText === null
      ? options.defaultLimit
      : limitNumber !== null && options.limitOk(limitNumber)
        ? limitNumber
        : fail('limit', options.limitMessage);
  const sortText = present(raw.sortBy ?? raw.sort_by);
  const sortBy =
    sortText === null
      ? options.defaultSort
      : options.sortKeys.includes(sortText as K)
        ? (sortText as K)
        : fail('sortBy', options.sortMessage);
  const orderText = present(raw.sortOrder ?? raw.sort_order)?.toUpperCase() ?? null;
  const sortOrder =
    orderText === null
      ? options.defaultOrder
      : orderText === 'ASC' || orderText === 'DESC'
        ? orderText
        : fail('sortOrder', LOAN_QUERY_MESSAGES.sortOrder);
  return { page, limit, sortBy, sortOrder };
}

/** GET /api/loans query → the read model's query, or every bad parameter with its message (422). */
export function parseLoanListQuery(raw: Raw): Parsed<LoanListQuery> {
  const errors: FieldError[] = [];
  const { page, limit, sortBy, sortOrder } = pageAndOrder<LoanSortKey>(raw, errors, {
    limitOk: (n) => (LOAN_PAGE_SIZES as readonly number[]).includes(n),
    limitMessage: LOAN_QUERY_MESSAGES.loanLimit,
    defaultLimit: 10,
    sortKeys: LOAN_SORT_KEYS,
    sortMessage: LOAN_QUERY_MESSAGES.loanSortBy,
    defaultSort: 'created_at',
    defaultOrder: 'DESC',
  });
  const search = present(raw.search);
  if (search !== null && [...search].length > 100)
    errors.push({ field: 'search', message: LOAN_QUERY_MESSAGES.search });
  const id = (field: 'filter_bank_id' | 'filter_loan_type_id', message: string) => {
    const text = present(raw[field]);
    if (text === null) return null;
    const n = wholeNumber(text, 1, 2_147_483_647);
    if (n === null) errors.push({ field, message });
    return n;
  };
  const bankId = id('filter_bank_id', LOAN_QUERY_MESSAGES.bankId);
  const loanTypeId = id('filter_loan_type_id', LOAN_QUERY_MESSAGES.loanTypeId);
  if (errors.length > 0 || page === null || limit === null || sortBy === null || sortOrder === null) {
    return { ok: false, errors };
  }
  return { ok: true, value: { page, limit, sortBy, sortOrder, search, bankId, loanTypeId } };
}

/** GET /api/banks query: limit 1 to 100 (default 50), sort bank_name ascending by default. */
export function parseBankListQuery(raw: Raw): Parsed<BankListQuery> {
  const errors: FieldError[] = [];
  const { page, limit, sortBy, sortOrder } = pageAndOrder<BankSortKey>(raw, errors, {
    limitOk: (n) => n >= 1 && n <= 100,
    limitMessage: LOAN_QUERY_MESSAGES.bankLimit,
    defaultLimit: 50,
    sortKeys: BANK_SORT_KEYS,
    sortMessage: LOAN_QUERY_MESSAGES.bankSortBy,
    defaultSort: 'bank_name',
    defaultOrder: 'ASC',
  });
  if (errors.length > 0 || page === null || limit === null || sortBy === null || sortOrder === null) {
    return { ok: false, errors };
  }
  return { ok: true, value: { page, limit, sortBy, sortOrder } };
}
