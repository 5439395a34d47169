import { Button, Callout, Card, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { ACCOUNT_KIND_LABELS } from '@kosh/domain';
import { useState } from 'react';
import { Link } from 'wouter';
import { PageHeader } from '../app/layout/PageHeader';
import { formatMoney } from '../format';
import { useAsOfMode, withAsOf } from '../history/asOf';
import { TableScroll } from '../ui/TableScroll';
import { AccountDialog } from './AccountDialog';
import { type Account, useGetAccountsQuery } from './accountsApi';
import { DeleteAccountDialog } from './DeleteAccountDialog';
import { TransferDialog } from './TransferDialog';

type Editing = { open: false } | { open: true; account: Account | null };

/** /accounts: the user's accounts with their balances; add, edit, delete when empty, transfer. */
export function AccountsPage() {
  const asOfMode = useAsOfMode('the accounts');
  const { asOf, readOnly } = asOfMode;
  const accounts = useGetAccountsQuery(asOf ? { asOf } : undefined);
  const [editing, setEditing] = useState<Editing>({ open: false });
  const [deleting, setDeleting] = useState<Account | null>(null);
  const [transferring, setTransferring] = useState(false);
  const rows = accounts.data ?? [];
  const total = rows.reduce((sum, a) => sum + Math.round(a.balance * 100), 0) / 100;

  return (
    <>
      <PageHeader
        title="Accounts"
        subtitle="Savings, current, cards, cash and wallets"
        actions={
          <div className="kosh-header-buttons">
            {asOfMode.control}
            {readOnly ? null : (
              <>
                <Button
                  icon="swap-horizontal"
                  text="Transfer"
                  disabled={rows.length < 2}
                  onClick={() => setTransferring(true)}
                />
                <Button
                  intent="primary"
                  icon="add"
                  text="Add Account"
                  onClick={() => setEditing({ open: true, account: null })}
                />
              </>
            )}
          </div>
        }
      />
      {asOfMode.banner}
      <Card>
        {accounts.isError ? (
          <Callout intent="danger" className="kosh-panel">
            Failed to load accounts
          </Callout>
        ) : null}
        {accounts.isLoading ? (
          <Spinner size={24} aria-label="Loading accounts" />
        ) : rows.length === 0 ? (
          <NonIdealState
            icon="bank-account"
            title="No accounts yet"
            description="Add a bank account, a card, cash or a wallet to see its balance and register."
          />
        ) : (
          <TableScroll label="Accounts table">
            <HTMLTable striped className="kosh-stack" aria-label="Accounts">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Type</th>
                  <th>Bank</th>
                  <th className="kosh-num">Balance</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((account) => (
                  <tr key={account.id}>
                    <td data-label="Name">
                      <Link href={withAsOf(`/accounts/${account.id}`, asOf)} className="kosh-strong">
                        {account.name}
                      </Link>
                      {account.last_four ? <span className="kosh-muted"> ••{account.last_four}</span> : null}
                    </td>
                    <td data-label="Type">{ACCOUNT_KIND_LABELS[account.kind]}</td>
                    <td data-label="Bank">{account.bank_name ?? '—'}</td>
                    <td
                      data-label="Balance"
                      className={`kosh-num ${account.balance < 0 ? 'kosh-debit' : 'kosh-credit'}`}
                    >
                      {formatMoney(account.balance)}
                    </td>
                    <td data-label="Actions">
                      {readOnly ? null : (
                        <div className="kosh-actions">
                          <Button
                            variant="minimal"
                            icon="edit"
                            aria-label={`Edit account ${account.name}`}
                            onClick={() => setEditing({ open: true, account })}
                          />
                          <Button
                            variant="minimal"
                            icon="trash"
                            intent="danger"
                            aria-label={`Delete account ${account.name}`}
                            disabled={account.entry_count > 0}
                            title={
                              account.entry_count > 0
                                ? 'Only an account without transactions can be deleted'
                                : undefined
                            }
                            onClick={() => setDeleting(account)}
                          />
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th colSpan={3}>Total</th>
                  <th className="kosh-num">{formatMoney(total)}</th>
                  <th />
                </tr>
              </tfoot>
            </HTMLTable>
          </TableScroll>
        )}
      </Card>
      {editing.open ? (
        <AccountDialog open editing={editing.account} onClose={() => setEditing({ open: false })} />
      ) : null}
      {deleting ? <DeleteAccountDialog account={deleting} onClose={() => setDeleting(null)} /> : null}
      {transferring ? <TransferDialog accounts={rows} onClose={() => setTransferring(false)} /> : null}
    </>
  );
}
