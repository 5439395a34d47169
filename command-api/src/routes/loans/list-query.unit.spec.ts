import { describe, expect, it } from 'vitest';
import { parseBankListQuery, parseLoanListQuery, LOAN_QUERY_MESSAGES as Q } from './list-query';

describe('GET /api/loans query', () => {
  it('takes the spec defaults: page 1, limit 10, created_at descending', () => {
    expect(parseLoanListQuery({})).toEqual({
      ok: true,
      value: {
        page: 1,
        limit: 10,
        sortBy: 'created_at',
        sortOrder: 'DESC',
        search: null,
        bankId: null,
        loanTypeId: null,
      },
    });
  });

  it('reads every parameter, the sort order in any case and snake_case sort names too', () => {
    expect(
      parseLoanListQuery({
        page: '3',
        limit: '25',
        sort_by: 'bank_name',
        sort_order: 'asc',
        search: '  hdfc ',
        filter_bank_id: '12',
        filter_loan_type_id: '1',
      }),
    ).toEqual({
      ok: true,
      value: {
        page: 3,
        limit: 25,
        sortBy: 'bank_name',
        sortOrder: 'ASC',
        search: 'hdfc',
        bankId: 12,
        loanTypeId: 1,
      },
    });
  });

  it('reports each bad parameter by name', () => {
    expect(
      parseLoanListQuery({
        page: '0',
        limit: '20',
        sortBy: 'user_id',
        sortOrder: 'up',
        filter_loan_type_id: '-1',
      }),
    ).toEqual({
      ok: false,
      errors: [
        { field: 'page', message: Q.page },
        { field: 'limit', message: Q.loanLimit },
        { field: 'sortBy', message: Q.loanSortBy },
        { field: 'sortOrder', message: Q.sortOrder },
        { field: 'filter_loan_type_id', message: Q.loanTypeId },
      ],
    });
  });

  it('allows only the spec page sizes', () => {
    for (const limit of ['5', '10', '25', '50']) expect(parseLoanListQuery({ limit }).ok).toBe(true);
    for (const limit of ['1', '11', '100', '5.0', 'ten'])
      expect(parseLoanListQuery({ limit }).ok).toBe(false);
  });
});

describe('GET /api/banks query', () => {
  it('defaults to 50 by bank name ascending and allows up to 100', () => {
    expect(parseBankListQuery({})).toEqual({
      ok: true,
      value: { page: 1, limit: 50, sortBy: 'bank_name', sortOrder: 'ASC' },
    });
    expect(parseBankListQuery({ limit: '100' }).ok).toBe(true);
    expect(parseBankListQuery({ limit: '101' })).toEqual({
      ok: false,
      errors: [{ field: 'limit', message: Q.bankLimit }],
    });
  });
});
