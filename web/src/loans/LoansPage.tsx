import {
  Alert,
  Button,
  ButtonGroup,
  Card,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { ToastOptions } from '../api/baseApi';
import { PageHeader } from '../app/layout/PageHeader';
import { useReadOnly } from '../audit/auditMode';
import { TableScroll } from '../ui/TableScroll';
import '../ui/money-screens.css';
import { formatDate, formatMoney, todayIso } from '../format';
import { useAsOfMode, withAsOf } from '../history/asOf';
import '../history/history.css';
import { toast } from '../toaster';
import { bankLabel, interestLabel, STATUS_INTENT, statusOf } from './loanDisplay';
import {
  type Loan,
  useDeleteLoanMutation,
  useGetBanksQuery,
  useGetLoansQuery,
  useRegenerateScheduleMutation,
} from './loansApi';
import { useDebouncedValue } from './useDebouncedValue';

export const PAGE_SIZES = [5, 10, 25, 50] as const;
/** Spec section 2: success toasts on this screen last 5 s, error toasts 8 s. */
export const LOAN_SUCCESS_TOAST_MS = 5000;
export const LOAN_ERROR_TOAST_MS = 8000;
/** Every call of this screen: its failure toasts (shown by the base query) last 8 s. */
const SCREEN_TOASTS = { errorToastMs: LOAN_ERROR_TOAST_MS } as const satisfies ToastOptions;

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

  const banks = useGetBanksQuery(SCREEN_TOASTS);
  const asOfMode = useAsOfMode('your loans');
  const { asOf, readOnly } = asOfMode;
  const list = useGetLoansQuery({ page, limit, search, bankId, ...SCREEN_TOASTS, ...(asOf ? { asOf } : {}) });
  const [removeLoan, removal] = useDeleteLoanMutation();
  const [regenerate] = useRegenerateScheduleMutation();
  const [deleting, setDeleting] = useState<Loan | null>(null);

  const goTo = (next: number) => setPage({ page: next, key });

  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await removeLoan({ id: deleting.id, ...SCREEN_TOASTS });
    setDeleting(null);
    if ('data' in result)
      toast.success(result.data?.message || 'Loan deleted successfully', LOAN_SUCCESS_TOAST_MS);
  };

  const generate = async (loan: Loan) => {
    const result = await regenerate({ id: loan.id, ...SCREEN_TOASTS });
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
  const today = todayIso();
  const filtered = search.trim() !== '' || bankId !== '';

  return (
    <>
      <PageHeader
        title="All Loans"
        subtitle="Every loan you are repaying"
        actions={
          <div className="kosh-header-buttons">
            {asOfMode.control}
            {readOnly ? null : (
              <Button
                intent="primary"
                icon="add"
                text="Create New Loan"
                onClick={() => navigate('/loans/create')}
              />
            )}
          </div>
        }
      />
      {asOfMode.banner}
      <Card className="kosh-panel">
        <div className="kosh-toolbar">
          <FormGroup label="Search" labelFor="loan-search">
            <InputGroup
              id="loan-search"
              type="search"
              leftIcon="search"
              placeholder="Search by account number, loan type, bank name or principal amount"
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
            />
          </FormGroup>
          <FormGroup label="Bank" labelFor="loan-bank">
            <HTMLSelect
              id="loan-bank"
              fill
              value={bankId}
              onChange={(e) => setBankId(e.target.value)}
              options={[
                { value: '', label: 'All Banks' },
                ...(banks.data ?? []).map((bank) => ({ value: String(bank.id), label: bankLabel(bank) })),
              ]}
            />
          </FormGroup>
        </div>
      </Card>
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
            description={filtered ? 'No loan matches your search.' : 'Add your first loan to see its EMIs.'}
            action={
              readOnly ? undefined : (
                <Button
                  intent="primary"
                  icon="add"
                  text="Create New Loan"
                  onClick={() => navigate('/loans/create')}
                />
              )
            }
          />
        ) : (
          <TableScroll label="Loans table">
            <HTMLTable
              striped
              interactive
              className="kosh-stack"
              aria-label="Loans"
              aria-busy={list.isFetching}
            >
              <thead>
                <tr>
                  <th>Account Number</th>
                  <th>Bank</th>
                  <th>Loan Type</th>
                  <th className="kosh-num">Principal Amount</th>
                  <th>Interest Rate</th>
                  <th>Start Date</th>
                  <th>End Date</th>
                  <th>Status</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {loans.map((loan) => (
                  <LoanRow
                    key={loan.id}
                    loan={loan}
                    today={today}
                    onGenerate={generate}
                    onDelete={setDeleting}
                    asOf={asOf}
                  />
                ))}
              </tbody>
            </HTMLTable>
          </TableScroll>
        )}
        {pagination && pagination.totalItems > 0 ? (
          <nav className="kosh-pagination" aria-label="Loan pages">
            <span className="kosh-muted">
              Showing {(pagination.page - 1) * pagination.limit + 1} to{' '}
              {Math.min(pagination.page * pagination.limit, pagination.totalItems)} of {pagination.totalItems}{' '}
              results
            </span>
            <div className="kosh-actions">
              <HTMLSelect
                aria-label="Loans per page"
                value={limit}
                onChange={(e) => setLimit(Number(e.target.value))}
                options={PAGE_SIZES.map((size) => ({ value: size, label: `${size} per page` }))}
              />
              <ButtonGroup>
                <Button
                  icon="chevron-left"
                  aria-label="Previous page"
                  disabled={pagination.page <= 1}
                  onClick={() => goTo(pagination.page - 1)}
                />
                <Button disabled text={`${pagination.page} / ${Math.max(pagination.totalPages, 1)}`} />
                <Button
                  icon="chevron-right"
                  aria-label="Next page"
                  disabled={pagination.page >= pagination.totalPages}
                  onClick={() => goTo(pagination.page + 1)}
                />
              </ButtonGroup>
            </div>
          </nav>
        ) : null}
      </Card>
      <Alert
        isOpen={deleting !== null}
        intent="danger"
        icon="trash"
        cancelButtonText="Cancel"
        confirmButtonText="Delete"
        loading={removal.isLoading}
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
      >
        <p>Are you sure you want to delete this loan?</p>
        {deleting ? <p className="kosh-muted">{deleting.accountNumber}</p> : null}
      </Alert>
    </>
  );
}

type RowProps = {
  loan: Loan;
  today: string;
  onGenerate: (loan: Loan) => void;
  onDelete: (loan: Loan) => void;
  /** As-of mode: links keep the date, write actions go. */
  asOf: string | null;
};

function LoanRow({ loan, today, onGenerate, onDelete, asOf }: RowProps) {
  const status = statusOf(loan, today);
  return (
    <tr>
      <td data-label="Account Number">
        <div>
          <Link href={withAsOf(`/loans/${loan.id}`, asOf)} className="kosh-strong">
            {loan.accountNumber}
          </Link>
          {loan.shortDetail ? (
            <div className="kosh-muted kosh-small kosh-truncate">{loan.shortDetail}</div>
          ) : null}
        </div>
      </td>
      <td data-label="Bank">
        <div>
          <div>{loan.bank?.bankName ?? '—'}</div>
          {loan.bank?.branchName ? <div className="kosh-muted kosh-small">{loan.bank.branchName}</div> : null}
        </div>
      </td>
      <td data-label="Loan Type">{loan.loanType?.typeName ?? '—'}</td>
      <td data-label="Principal Amount" className="kosh-num">
        {formatMoney(Number(loan.principalAmount))}
      </td>
      <td data-label="Interest Rate">{interestLabel(loan)}</td>
      <td data-label="Start Date">{formatDate(loan.startDate)}</td>
      <td data-label="End Date">{formatDate(loan.endDate)}</td>
      <td data-label="Status">
        <Tag intent={STATUS_INTENT[status]} round>
          {status}
        </Tag>
      </td>
      <td data-label="Actions">
        <div className="kosh-actions">
          <LinkButton
            href={withAsOf(`/loans/${loan.id}`, asOf)}
            icon="eye-open"
            label={`View loan ${loan.accountNumber}`}
          />
          {asOf ? null : <LoanWriteActions loan={loan} onGenerate={onGenerate} onDelete={onDelete} />}
        </div>
      </td>
    </tr>
  );
}

function LoanWriteActions({ loan, onGenerate, onDelete }: Omit<RowProps, 'today' | 'asOf'>) {
  if (useReadOnly()) return null;
  return (
    <>
      <LinkButton href={`/loans/${loan.id}/edit`} icon="edit" label={`Edit loan ${loan.accountNumber}`} />
      <Button
        variant="minimal"
        icon="calendar"
        aria-label={`Generate schedule for loan ${loan.accountNumber}`}
        title="Generate amortization schedule"
        onClick={() => onGenerate(loan)}
      />
      <Button
        variant="minimal"
        icon="trash"
        intent="danger"
        aria-label={`Delete loan ${loan.accountNumber}`}
        title="Delete"
        onClick={() => onDelete(loan)}
      />
    </>
  );
}

function LinkButton({ href, icon, label }: { href: string; icon: 'eye-open' | 'edit'; label: string }) {
  const [, navigate] = useLocation();
  return (
    <Button variant="minimal" icon={icon} aria-label={label} title={label} onClick={() => navigate(href)} />
  );
}
