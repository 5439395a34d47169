import { Button, HTMLTable, Spinner, Tag } from '@blueprintjs/core';
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
  /** As-of mode: the history stays, edit and delete go. */
  readOnly?: boolean;
  onClearFilters: () => void;
};

const COLUMNS = 6;

export function TransactionTable({
  transactions,
  loading,
  filtered,
  onEdit,
  onDelete,
  onHistory,
  readOnly = false,
  onClearFilters,
}: Props) {
  return (
    <TableScroll label="Transactions table">
      <HTMLTable striped interactive className="kosh-stack" aria-label="Transactions" aria-busy={loading}>
        <thead>
          <tr>
            <th>Date</th>
            <th>Notes</th>
            <th>Type</th>
            <th className="kosh-num">Amount</th>
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
}: {
  t: Transaction;
  onEdit?: (t: Transaction) => void;
  onDelete?: (t: Transaction) => void;
  onHistory: (t: Transaction) => void;
}) {
  const credit = t.transaction_type === 'C';
  return (
    <tr>
      <td data-label="Date">{formatDate(t.transaction_date)}</td>
      <td data-label="Notes" className="kosh-notes" title={t.notes}>
        {t.notes}
      </td>
      <td data-label="Type">
        <Tag intent={credit ? 'success' : 'danger'} minimal>
          {credit ? 'Credit' : 'Debit'}
        </Tag>
      </td>
      <td data-label="Amount" className={`kosh-num ${credit ? 'kosh-credit' : 'kosh-debit'}`}>
        {credit ? '+' : '-'}
        {formatMoney(t.amount)}
      </td>
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
