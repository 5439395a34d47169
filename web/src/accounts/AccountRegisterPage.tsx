import { Button, Callout, Card, HTMLTable, Spinner } from '@blueprintjs/core';
import { ACCOUNT_KIND_LABELS } from '@kosh/domain';
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { PageHeader } from '../app/layout/PageHeader';
import { formatDate, formatMoney } from '../format';
import { asOfParams, useAsOfMode, withAsOf } from '../history/asOf';
import { toast } from '../toaster';
import { TransactionPagination } from '../transactions/TransactionPagination';
import { ExportCsvButton } from '../ui/ExportCsvButton';
import { TableScroll } from '../ui/TableScroll';
import {
  REGISTER_PAGE_SIZE,
  type RegisterEntry,
  useDeleteTransferMutation,
  useGetAccountsQuery,
  useGetRegisterQuery,
} from './accountsApi';
import { TransferDialog } from './TransferDialog';

const KIND_TEXT: Record<RegisterEntry['kind'], string> = {
  opening: 'Opening balance',
  transaction: 'Transaction',
  transfer_in: 'Transfer in',
  transfer_out: 'Transfer out',
};

function details(entry: RegisterEntry): string {
  if (!entry.counterpart_account_name) return entry.notes;
  const way = entry.kind === 'transfer_in' ? 'from' : 'to';
  return `${entry.notes ? `${entry.notes} · ` : ''}${way} ${entry.counterpart_account_name}`;
}

/** /accounts/:id: the account's register, newest first, with the running balance after each row. */
export function AccountRegisterPage() {
  const { id = '' } = useParams<{ id: string }>();
  const asOfMode = useAsOfMode('the register');
  const { asOf, readOnly } = asOfMode;
  const [page, setPage] = useState(1);
  const [transferring, setTransferring] = useState(false);
  const register = useGetRegisterQuery({ id, page, ...(asOf ? { asOf } : {}) });
  const accounts = useGetAccountsQuery(undefined, { skip: readOnly });
  const [removeTransfer] = useDeleteTransferMutation();
  const account = register.data?.account;

  const csvQuery = new URLSearchParams(asOfParams(asOf)).toString();
  const deleteTransfer = async (entry: RegisterEntry) => {
    if (!entry.id) return;
    const result = await removeTransfer(entry.id);
    if (!('error' in result)) toast.success('Transfer deleted successfully!');
  };

  return (
    <>
      <PageHeader
        title={account ? account.name : 'Account'}
        subtitle={
          account ? (
            <>
              {ACCOUNT_KIND_LABELS[account.kind]}
              {account.bank_name ? ` · ${account.bank_name}` : ''}
              {account.last_four ? ` · ••${account.last_four}` : ''} · Balance{' '}
              <strong>{formatMoney(account.balance)}</strong>
            </>
          ) : undefined
        }
        actions={
          <div className="kosh-header-buttons">
            {asOfMode.control}
            <Link href={withAsOf('/accounts', asOf)} className="bp6-button">
              All accounts
            </Link>
            <ExportCsvButton
              url={`/api/accounts/${encodeURIComponent(id)}/register.csv${csvQuery ? `?${csvQuery}` : ''}`}
              fileName={`${account?.name ?? 'account'}-register.csv`}
              what="the register"
              disabled={!account}
            />
            {readOnly ? null : (
              <Button
                icon="swap-horizontal"
                text="Transfer"
                intent="primary"
                disabled={(accounts.data?.length ?? 0) < 2}
                onClick={() => setTransferring(true)}
              />
            )}
          </div>
        }
      />
      {asOfMode.banner}
      <Card>
        {register.isError ? (
          <Callout intent="danger" className="kosh-panel">
            Failed to load the register
          </Callout>
        ) : null}
        {register.isLoading ? (
          <Spinner size={24} aria-label="Loading the register" />
        ) : (
          <TableScroll label="Register table">
            <HTMLTable striped className="kosh-stack" aria-label="Register" aria-busy={register.isFetching}>
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Details</th>
                  <th>Kind</th>
                  <th className="kosh-num">Amount</th>
                  <th className="kosh-num">Balance</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {(register.data?.entries ?? []).map((entry) => (
                  <tr key={`${entry.kind}:${entry.id ?? 'opening'}`}>
                    <td data-label="Date">{formatDate(entry.date)}</td>
                    <td data-label="Details" className="kosh-notes" title={details(entry)}>
                      {details(entry)}
                    </td>
                    <td data-label="Kind">{KIND_TEXT[entry.kind]}</td>
                    <td
                      data-label="Amount"
                      className={`kosh-num ${entry.amount < 0 ? 'kosh-debit' : 'kosh-credit'}`}
                    >
                      {entry.kind === 'opening' ? '' : entry.amount < 0 ? '-' : '+'}
                      {formatMoney(Math.abs(entry.amount))}
                    </td>
                    <td data-label="Balance" className="kosh-num">
                      {formatMoney(entry.balance)}
                    </td>
                    <td data-label="Actions">
                      {!readOnly && entry.kind.startsWith('transfer') ? (
                        <Button
                          variant="minimal"
                          icon="trash"
                          intent="danger"
                          aria-label={`Delete transfer ${details(entry)}`}
                          title="Delete transfer (both legs)"
                          onClick={() => deleteTransfer(entry)}
                        />
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </TableScroll>
        )}
        {register.data ? (
          <TransactionPagination
            pagination={register.data.pagination}
            page={page}
            pageSize={REGISTER_PAGE_SIZE}
            onPage={setPage}
          />
        ) : null}
      </Card>
      {transferring ? (
        <TransferDialog
          accounts={accounts.data ?? []}
          fromAccountId={id}
          onClose={() => setTransferring(false)}
        />
      ) : null}
    </>
  );
}
