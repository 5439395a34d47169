import { Button, Callout, Card, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { useGetAccountsQuery } from '../accounts/accountsApi';
import { PageHeader } from '../app/layout/PageHeader';
import { categoryLabel, useGetCategoriesQuery } from '../categories/categoriesApi';
import { formatMoney } from '../format';
import { asOfArg, useAsOfMode } from '../history/asOf';
import { ExportCsvButton } from '../ui/ExportCsvButton';
import { StatCard, StatGrid } from '../ui/StatCard';
import '../history/history.css';
import { HistoryDrawer } from '../history/HistoryDrawer';
import { RuleDialog } from '../rules/RuleDialog';
import { DeleteTransactionDialog } from './DeleteTransactionDialog';
import { ruleValuesFrom } from './ruleFromTransaction';
import { TransactionDialog } from './TransactionDialog';
import { isFiltered, TransactionFilterPanel } from './TransactionFilterPanel';
import { TransactionPagination } from './TransactionPagination';
import { TransactionTable } from './TransactionTable';
import {
  NO_FILTERS,
  TRANSACTION_PAGE_SIZE,
  type Transaction,
  type TransactionFilters,
  transactionsCsvUrl,
  useGetTransactionStatsQuery,
  useGetTransactionsQuery,
} from './transactionsApi';

type Editing = { open: false } | { open: true; transaction: Transaction | null };

/** /transactions, the Transaction Book (spec section 2). */
export function TransactionsPage() {
  const [typed, setTyped] = useState<TransactionFilters>(NO_FILTERS);
  const [applied, setApplied] = useState<TransactionFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Editing>({ open: false });
  const [deleting, setDeleting] = useState<Transaction | null>(null);
  const [history, setHistory] = useState<Transaction | null>(null);
  /** Just categorised by hand: the page offers to make a rule from it (issue 31). */
  const [categorised, setCategorised] = useState<Transaction | null>(null);
  const [ruleFrom, setRuleFrom] = useState<Transaction | null>(null);
  const asOfMode = useAsOfMode('the transaction book');
  const { asOf, readOnly } = asOfMode;

  const list = useGetTransactionsQuery({ page, filters: applied, ...asOfArg(asOf) });
  const accounts = useGetAccountsQuery(asOf ? { asOf } : undefined);
  const stats = useGetTransactionStatsQuery(asOf ?? undefined);
  const categories = useGetCategoriesQuery();
  const categorisedAs = categorised?.category_id
    ? categories.data?.find((c) => c.id === categorised.category_id)
    : undefined;

  const apply = () => {
    setApplied({ ...typed, search: typed.search.trim() });
    setPage(1);
  };
  const clear = () => {
    setTyped(NO_FILTERS);
    setApplied(NO_FILTERS);
    setPage(1);
  };

  const net = stats.data?.net_amount ?? 0;
  return (
    <>
      <PageHeader
        title="Transaction Book"
        subtitle="Your credits and debits"
        actions={
          <div className="kosh-header-buttons">
            {asOfMode.control}
            <ExportCsvButton
              url={transactionsCsvUrl(applied, asOf)}
              fileName="transactions.csv"
              what="the transactions"
            />
            {readOnly ? null : (
              <Button
                intent="primary"
                icon="add"
                text="Add Transaction"
                onClick={() => setEditing({ open: true, transaction: null })}
              />
            )}
          </div>
        }
      />
      {asOfMode.banner}
      {stats.isError ? (
        <Callout intent="danger" className="kosh-panel">
          Failed to load transaction statistics
        </Callout>
      ) : null}
      <StatGrid>
        <StatCard label="Total Transactions" icon="exchange" value={stats.data?.total_transactions ?? '—'} />
        <StatCard
          label="Total Credits"
          icon="arrow-down"
          intent={Intent.SUCCESS}
          value={stats.data ? formatMoney(stats.data.credit_amount) : '—'}
        />
        <StatCard
          label="Total Debits"
          icon="arrow-up"
          intent={Intent.DANGER}
          value={stats.data ? formatMoney(stats.data.debit_amount) : '—'}
        />
        <StatCard
          label="Net Amount"
          icon={net >= 0 ? 'trending-up' : 'trending-down'}
          intent={net >= 0 ? Intent.SUCCESS : Intent.WARNING}
          value={stats.data ? formatMoney(net) : '—'}
        />
      </StatGrid>
      <TransactionFilterPanel
        accounts={accounts.data ?? []}
        categories={categories.data ?? []}
        typed={typed}
        applied={applied}
        onType={setTyped}
        onApply={apply}
        onClear={clear}
      />
      {categorised ? (
        <Callout intent="success" icon="tag" className="kosh-panel" aria-live="polite">
          <p>
            “{categorised.notes}” is now in{' '}
            <strong>
              {categorisedAs ? categoryLabel(categorisedAs, categories.data ?? []) : 'its category'}
            </strong>
            . Categorise others like it automatically?
          </p>
          <div className="kosh-actions">
            <Button
              intent="primary"
              icon="predictive-analysis"
              text="Make a rule from this"
              onClick={() => {
                setRuleFrom(categorised);
                setCategorised(null);
              }}
            />
            <Button variant="minimal" text="Not now" onClick={() => setCategorised(null)} />
          </div>
        </Callout>
      ) : null}
      <Card>
        {list.isError ? (
          <Callout intent="danger" className="kosh-panel">
            Failed to load transactions
          </Callout>
        ) : null}
        <TransactionTable
          transactions={list.data?.transactions ?? []}
          loading={list.isFetching}
          filtered={isFiltered(applied)}
          onEdit={(transaction) => setEditing({ open: true, transaction })}
          onDelete={setDeleting}
          onHistory={setHistory}
          onMakeRule={setRuleFrom}
          readOnly={readOnly}
          onClearFilters={clear}
        />
        {list.data ? (
          <TransactionPagination
            pagination={list.data.pagination}
            page={page}
            pageSize={TRANSACTION_PAGE_SIZE}
            onPage={setPage}
          />
        ) : null}
      </Card>
      {/* Mounted only while open, so each opening starts from fresh values. */}
      {editing.open ? (
        <TransactionDialog
          open
          editing={editing.transaction}
          accountId={applied.account_id === 'none' ? '' : applied.account_id}
          onClose={() => setEditing({ open: false })}
          onCategorised={setCategorised}
        />
      ) : null}
      {ruleFrom ? (
        <RuleDialog editing={null} initial={ruleValuesFrom(ruleFrom)} onClose={() => setRuleFrom(null)} />
      ) : null}
      {deleting ? <DeleteTransactionDialog transaction={deleting} onClose={() => setDeleting(null)} /> : null}
      {history ? (
        <HistoryDrawer
          kind="transactions"
          id={history.id}
          title={`History of ${history.notes}`}
          onClose={() => setHistory(null)}
        />
      ) : null}
    </>
  );
}
