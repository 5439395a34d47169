import { describe, expect, it } from 'vitest';
import { LIST_QUERY_MESSAGES as M, parseTransactionListQuery } from './list-query';

describe('transaction list query', () => {
  it('defaults to page 1, 10 rows, newest transaction date first', () => {
    expect(parseTransactionListQuery({})).toEqual({
      ok: true,
      value: {
        page: 1,
        limit: 10,
        search: null,
        transactionType: null,
        dateFrom: null,
        dateTo: null,
        sortBy: 'transaction_date',
        sortOrder: 'DESC',
      },
    });
  });

  it('ignores empty values', () => {
    const empty = {
      page: '',
      limit: ' ',
      search: '',
      transaction_type: '',
      date_from: '',
      date_to: '',
      sort_by: '',
      sort_order: '',
    };
    expect(parseTransactionListQuery(empty)).toEqual(parseTransactionListQuery({}));
  });

  it('takes every filter and sort', () => {
    expect(
      parseTransactionListQuery({
        page: '3',
        limit: '100',
        search: ' 50% off ',
        transaction_type: 'd',
        date_from: '2024-02-01',
        date_to: '2024-02-29',
        sort_by: 'amount',
        sort_order: 'asc',
      }),
    ).toEqual({
      ok: true,
      value: {
        page: 3,
        limit: 100,
        search: '50% off',
        transactionType: 'D',
        dateFrom: '2024-02-01',
        dateTo: '2024-02-29',
        sortBy: 'amount',
        sortOrder: 'ASC',
      },
    });
  });

  it('names every bad parameter', () => {
    expect(
      parseTransactionListQuery({
        page: '0',
        limit: '101',
        search: 'x'.repeat(256),
        transaction_type: 'X',
        date_from: '2025-02-30',
        date_to: 'yesterday',
        sort_by: 'id; DROP TABLE transactions',
        sort_order: 'sideways',
      }),
    ).toEqual({
      ok: false,
      errors: [
        { field: 'page', message: M.page },
        { field: 'limit', message: M.limit },
        { field: 'search', message: M.search },
        { field: 'transaction_type', message: 'Invalid transaction type' },
        { field: 'date_from', message: M.date },
        { field: 'date_to', message: M.date },
        { field: 'sort_by', message: M.sortBy },
        { field: 'sort_order', message: M.sortOrder },
      ],
    });
    for (const page of ['-1', '1.5', 'abc', '99999999999', '1e3']) {
      expect(parseTransactionListQuery({ page })).toMatchObject({ ok: false, errors: [{ field: 'page' }] });
    }
  });

  it('filters by an account id (lower-cased) or none, and names anything else', () => {
    const id = '3F1C2B8E-1D2A-4C1B-9A51-7A0C6D1E2F30';
    expect(parseTransactionListQuery({ account_id: id })).toMatchObject({
      ok: true,
      value: { accountId: id.toLowerCase() },
    });
    expect(parseTransactionListQuery({ account_id: 'NONE' })).toMatchObject({
      ok: true,
      value: { accountId: 'none' },
    });
    expect(parseTransactionListQuery({ account_id: 'savings' })).toEqual({
      ok: false,
      errors: [{ field: 'account_id', message: M.accountId }],
    });
  });
});
