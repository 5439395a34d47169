import { Button, Card, NonIdealState, Spinner } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { PageHeader } from '../app/layout/PageHeader';
import { useAsOfMode } from '../history/asOf';
import '../ui/money-screens.css';
import '../history/history.css';
import { formatDate } from '../format';
import { toast } from '../toaster';
import { DeleteLoanDialog } from './DeleteLoanDialog';
import { LoanFilterPanel } from './LoanFilterPanel';
import { LoanPagination } from './LoanPagination';
import { LoanTable } from './LoanTable';
import { LOAN_LIST_TOASTS, LOAN_SUCCESS_TOAST_MS } from './loanListToasts';
import { type Loan, useGetBanksQuery, useGetLoansQuery, useRegenerateScheduleMutation } from './loansApi';
import { useDebouncedValue } from './useDebouncedValue';

/** /loans, 'All Loans' (spec section 2). */
export function LoansPage() {
  const [, navigate] = useLocation();
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText, 300);
  const [bankId, setBankId] = useState('');
  const [limit, setLimit] = useState<number>(10);
  const [pageState, setPage] = useState({ page: 1, key: '' });
  const key = `${search}|${bankId}|${limit}`;
  // Any change of search, bank or page size starts again at page 1.
  const page = pageState.key === key ? pageState.page : 1;

  const banks = useGetBanksQuery(LOAN_LIST_TOASTS);
  const asOfMode = useAsOfMode('your loans');
  const { asOf, readOnly } = asOfMode;
  const list = useGetLoansQuery({
    page,
    limit,
    search,
    bankId,
    ...LOAN_LIST_TOASTS,
    ...(asOf ? { asOf } : {}),
  });
  const [regenerate] = useRegenerateScheduleMutation();
  const [deleting, setDeleting] = useState<Loan | null>(null);

  const generate = async (loan: Loan) => {
    const result = await regenerate({ id: loan.id, ...LOAN_LIST_TOASTS });
    if ('error' in result) return;
    toast.success('Amortization schedule generated successfully', LOAN_SUCCESS_TOAST_MS);
    navigate(`/loans/${loan.id}/amortization`);
  };

  const pagination = list.data?.pagination;
  const loans = list.data?.loans ?? [];
  // Deleting the last loan of the last page leaves that page empty: show the page before it.
  const lastPage = pagination?.totalPages ?? 1;
  useEffect(() => {
    if (page > 1 && lastPage >= 1 && page > lastPage) setPage({ page: lastPage, key });
  }, [page, lastPage, key]);
  const filtered = search.trim() !== '' || bankId !== '';
  const createLoan = readOnly ? undefined : (
    <Button intent="primary" icon="add" text="Create New Loan" onClick={() => navigate('/loans/create')} />
  );

  return (
    <>
      <PageHeader
        title="All Loans"
        subtitle="Every loan you are repaying"
        actions={
          <div className="kosh-header-buttons">
            {asOfMode.control}
            {createLoan}
          </div>
        }
      />
      {asOfMode.banner}
      <LoanFilterPanel
        search={searchText}
        onSearch={setSearchText}
        bankId={bankId}
        onBank={setBankId}
        banks={banks.data ?? []}
      />
      <Card>
        {list.isLoading ? (
          <div className="kosh-page-loading" role="status">
            <Spinner aria-hidden />
            <span>Loading loans...</span>
          </div>
        ) : list.isError && !list.data ? (
          <NonIdealState icon="error" title="Failed to fetch loans" />
        ) : loans.length === 0 ? (
          <NonIdealState
            icon="bank-account"
            title="No loans found"
            description={
              filtered
                ? 'No loan matches your search.'
                : asOf
                  ? `You had no loans on ${formatDate(asOf)}.`
                  : 'Add your first loan to see its EMIs.'
            }
            action={createLoan}
          />
        ) : (
          <LoanTable
            loans={loans}
            loading={list.isFetching}
            onGenerate={generate}
            onDelete={setDeleting}
            asOf={asOf}
          />
        )}
        {pagination ? (
          <LoanPagination
            pagination={pagination}
            limit={limit}
            page={page}
            onPage={(next) => setPage({ page: next, key })}
            onLimit={setLimit}
          />
        ) : null}
      </Card>
      <DeleteLoanDialog loan={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
