import { Button, HTMLTable, Spinner, Tag } from '@blueprintjs/core';
import type { TRANSACTION_FIELDS, WireNames } from '@kosh/domain';
import { Fragment, type ReactNode } from 'react';
import { categoryLabel, useGetCategoriesQuery } from '../categories/categoriesApi';
import { formatDate, formatDateTime, formatMoney } from '../format';
import { TableScroll } from '../ui/TableScroll';
import type { Transaction } from './transactionsApi';

type Props = {
  transactions: Transaction[];
  loading: boolean;
  filtered: boolean;
  onEdit: (transaction: Transaction) => void;
  onDelete: (transaction: Transaction) => void;
  /** Opens the transaction's History drawer. */
  onHistory: (transaction: Transaction) => void;
  /** Opens a new rule made from the transaction (issue 31). */
  onMakeRule?: (transaction: Transaction) => void;
  /** As-of mode: the history stays, edit and delete go. */
  readOnly?: boolean;
  onClearFilters: () => void;
};

type Column = { th: ReactNode; td: (t: Transaction) => ReactNode };

/**
 * The column of each declared field (TRANSACTION_FIELDS), in the table's order, or `'hidden'` for
 * a field the table does not show: a field added to the table does not compile until it is here.
 */
const FIELD_COLUMNS: Record<WireNames<typeof TRANSACTION_FIELDS>, Column | 'hidden'> = {
  transaction_date: {
    th: <th>Date</th>,
    td: (t) => <td data-label="Date">{formatDate(t.transaction_date)}</td>,
  },
  notes: {
    th: <th>Notes</th>,
    td: (t) => (
      <td data-label="Notes" className="kosh-notes" title={t.notes}>
        {t.notes}
      </td>
    ),
  },
  transaction_type: {
    th: <th>Type</th>,
    td: (t) => (
      <td data-label="Type">
        <Tag intent={isCredit(t) ? 'success' : 'danger'} minimal>
          {isCredit(t) ? 'Credit' : 'Debit'}
        </Tag>
      </td>
    ),
  },
  amount: {
    th: <th className="kosh-num">Amount</th>,
    td: (t) => (
      <td data-label="Amount" className={`kosh-num ${isCredit(t) ? 'kosh-credit' : 'kosh-debit'}`}>
        {isCredit(t) ? '+' : '-'}
        {formatMoney(t.amount)}
      </td>
    ),
  },
  /** The book filters by account; the row does not repeat it. */
  account_id: 'hidden',
  category_id: {
    th: <th>Category</th>,
    td: (t) => (
      <td data-label="Category">
        <CategoryName id={t.category_id} />
      </td>
    ),
  },
  payee: {
    th: <th>Payee</th>,
    td: (t) => (
      <td data-label="Payee" className="kosh-notes" title={t.payee ?? ''}>
        {t.payee ?? ''}
      </td>
    ),
  },
};

/** A category's name from the user's list ("Food › Groceries"); blank for none. */
function CategoryName({ id }: { id: string | null }) {
  const categories = useGetCategoriesQuery(undefined, { skip: id === null });
  if (id === null) return null;
  const category = categories.data?.find((c) => c.id === id);
  return category ? categoryLabel(category, categories.data ?? []) : null;
}

const isCredit = (t: Transaction) => t.transaction_type === 'C';

const FIELDS_SHOWN = Object.entries(FIELD_COLUMNS).flatMap(([name, column]) =>
  column === 'hidden' ? [] : [{ name, ...column }],
);

/** The fields shown, then Created and Actions. */
const COLUMNS = FIELDS_SHOWN.length + 2;

export function TransactionTable({
  transactions,
  loading,
  filtered,
  onEdit,
  onDelete,
  onHistory,
  onMakeRule,
  readOnly = false,
  onClearFilters,
}: Props) {
  return (
    <TableScroll label="Transactions table">
      <HTMLTable striped interactive className="kosh-stack" aria-label="Transactions" aria-busy={loading}>
        <thead>
          <tr>
            {FIELDS_SHOWN.map((column) => (
              <Fragment key={column.name}>{column.th}</Fragment>
            ))}
            <th>Created</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {loading ? (
            <tr>
              <td colSpan={COLUMNS} className="kosh-empty-cell">
                <Spinner size={20} aria-hidden /> Loading transactions...
              </td>
            </tr>
          ) : transactions.length === 0 ? (
            <tr>
              <td colSpan={COLUMNS} className="kosh-empty-cell">
                <div>No transactions found</div>
                {filtered ? (
                  <Button
                    variant="minimal"
                    intent="primary"
                    text="Clear all filters"
                    onClick={onClearFilters}
                  />
                ) : null}
              </td>
            </tr>
          ) : (
            transactions.map((t) => (
              <TransactionRow
                key={t.id}
                t={t}
                onEdit={readOnly ? undefined : onEdit}
                onDelete={readOnly ? undefined : onDelete}
                onHistory={onHistory}
                onMakeRule={readOnly ? undefined : onMakeRule}
              />
            ))
          )}
        </tbody>
      </HTMLTable>
    </TableScroll>
  );
}

function TransactionRow({
  t,
  onEdit,
  onDelete,
  onHistory,
  onMakeRule,
}: {
  t: Transaction;
  onEdit?: (t: Transaction) => void;
  onDelete?: (t: Transaction) => void;
  onHistory: (t: Transaction) => void;
  onMakeRule?: (t: Transaction) => void;
}) {
  return (
    <tr>
      {FIELDS_SHOWN.map((column) => (
        <Fragment key={column.name}>{column.td(t)}</Fragment>
      ))}
      <td data-label="Created">{formatDateTime(t.created_at)}</td>
      <td data-label="Actions">
        <div className="kosh-actions">
          <Button
            variant="minimal"
            icon="history"
            aria-label={`History of transaction ${t.notes}`}
            title="History"
            onClick={() => onHistory(t)}
          />
          {onMakeRule && (t.category_id || t.payee) ? (
            <Button
              variant="minimal"
              icon="predictive-analysis"
              aria-label={`Make a rule from transaction ${t.notes}`}
              title="Make a rule from this"
              onClick={() => onMakeRule(t)}
            />
          ) : null}
          {onEdit ? (
            <Button
              variant="minimal"
              icon="edit"
              aria-label={`Edit transaction ${t.notes}`}
              title="Edit"
              onClick={() => onEdit(t)}
            />
          ) : null}
          {onDelete ? (
            <Button
              variant="minimal"
              icon="trash"
              intent="danger"
              aria-label={`Delete transaction ${t.notes}`}
              title="Delete"
              onClick={() => onDelete(t)}
            />
          ) : null}
        </div>
      </td>
    </tr>
  );
}
