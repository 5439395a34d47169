import { Alert, Button, Callout, Card, H2, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { PageHeader } from '../app/layout/PageHeader';
import { formatDate, formatMoney } from '../format';
import { toast } from '../toaster';
import { TableScroll } from '../ui/TableScroll';
import { OccurrenceDialog } from './OccurrenceDialog';
import { RecurringDialog } from './RecurringDialog';
import {
  type Occurrence,
  type Recurring,
  useDeleteRecurringMutation,
  useGetRecurringQuery,
  useGetUpcomingQuery,
  useRestoreOccurrenceMutation,
  useSkipOccurrenceMutation,
} from './recurringApi';
import { scheduleText } from './recurringForm';

type Editing = { open: false } | { open: true; entry: Recurring | null };

const UPCOMING_DAYS = 92;

const STATUS_TAGS: Record<
  Occurrence['status'],
  { label: string; intent: 'none' | 'success' | 'warning' | 'primary' }
> = {
  due: { label: 'Due', intent: 'none' },
  changed: { label: 'Changed', intent: 'primary' },
  skipped: { label: 'Skipped', intent: 'warning' },
  posted: { label: 'Posted', intent: 'success' },
};

/** /recurring: salary, rent, SIP, premiums; each occurrence is posted to the book on its day. */
export function RecurringPage() {
  const entries = useGetRecurringQuery();
  const upcoming = useGetUpcomingQuery(UPCOMING_DAYS);
  const [editing, setEditing] = useState<Editing>({ open: false });
  const [changing, setChanging] = useState<Occurrence | null>(null);
  const [deleting, setDeleting] = useState<Recurring | null>(null);
  const [remove] = useDeleteRecurringMutation();
  const [skip] = useSkipOccurrenceMutation();
  const [restore] = useRestoreOccurrenceMutation();
  const rows = entries.data ?? [];
  const byId = new Map(rows.map((r) => [r.id, r]));

  const deleteEntry = async (entry: Recurring) => {
    const result = await remove(entry.id);
    if (!('error' in result)) toast.success('Recurring entry deleted successfully!');
  };
  const skipOne = async (o: Occurrence) => {
    const result = await skip({ id: o.recurring_id, date: o.date });
    if (!('error' in result)) toast.success(`Occurrence of ${formatDate(o.date)} skipped`);
  };
  const restoreOne = async (o: Occurrence) => {
    const result = await restore({ id: o.recurring_id, date: o.date });
    if (!('error' in result)) toast.success(`Occurrence of ${formatDate(o.date)} restored`);
  };

  return (
    <>
      <PageHeader
        title="Recurring"
        subtitle="Entries posted to the transaction book on their day"
        actions={
          <Button
            intent="primary"
            icon="add"
            text="Add Recurring Entry"
            onClick={() => setEditing({ open: true, entry: null })}
          />
        }
      />
      <Card>
        {entries.isError ? (
          <Callout intent="danger" className="kosh-panel">
            Failed to load recurring entries
          </Callout>
        ) : null}
        {entries.isLoading ? (
          <Spinner size={24} aria-label="Loading recurring entries" />
        ) : rows.length === 0 ? (
          <NonIdealState
            icon="repeat"
            title="No recurring entries yet"
            description="Add your salary, rent, SIPs or premiums: each is posted to the book on its day."
          />
        ) : (
          <TableScroll label="Recurring entries table">
            <HTMLTable striped className="kosh-stack" aria-label="Recurring entries">
              <thead>
                <tr>
                  <th>Notes</th>
                  <th>Schedule</th>
                  <th>Next</th>
                  <th className="kosh-num">Amount</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((entry) => (
                  <tr key={entry.id}>
                    <td data-label="Notes">
                      <span className="kosh-strong">{entry.notes}</span>
                      {entry.payee ? <span className="kosh-muted"> · {entry.payee}</span> : null}
                    </td>
                    <td data-label="Schedule">
                      {scheduleText(entry)}
                      <span className="kosh-muted">
                        {' '}
                        from {formatDate(entry.start_date)}
                        {entry.end_date ? ` to ${formatDate(entry.end_date)}` : ''}
                      </span>
                    </td>
                    <td data-label="Next">
                      {entry.next_occurrence ? formatDate(entry.next_occurrence) : '—'}
                    </td>
                    <td
                      data-label="Amount"
                      className={`kosh-num ${entry.transaction_type === 'D' ? 'kosh-debit' : 'kosh-credit'}`}
                    >
                      {entry.transaction_type === 'D' ? '−' : '+'}
                      {formatMoney(entry.amount)}
                    </td>
                    <td data-label="Actions">
                      <div className="kosh-actions">
                        <Button
                          variant="minimal"
                          icon="edit"
                          aria-label={`Edit recurring entry ${entry.notes}`}
                          onClick={() => setEditing({ open: true, entry })}
                        />
                        <Button
                          variant="minimal"
                          icon="trash"
                          intent="danger"
                          aria-label={`Delete recurring entry ${entry.notes}`}
                          onClick={() => setDeleting(entry)}
                        />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </TableScroll>
        )}
      </Card>
      <Card>
        <H2 className="kosh-card-title">Upcoming (next {UPCOMING_DAYS} days)</H2>
        {upcoming.isLoading ? (
          <Spinner size={24} aria-label="Loading upcoming occurrences" />
        ) : (upcoming.data ?? []).length === 0 ? (
          <p className="kosh-muted">Nothing due in the next {UPCOMING_DAYS} days.</p>
        ) : (
          <TableScroll label="Upcoming occurrences table">
            <HTMLTable striped className="kosh-stack" aria-label="Upcoming occurrences">
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Notes</th>
                  <th>Status</th>
                  <th className="kosh-num">Amount</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {(upcoming.data ?? []).map((o) => {
                  const tag = STATUS_TAGS[o.status];
                  const name = `${o.notes} on ${formatDate(o.date)}`;
                  return (
                    <tr key={`${o.recurring_id}-${o.date}`}>
                      <td data-label="Date">{formatDate(o.date)}</td>
                      <td data-label="Notes">
                        {o.notes}
                        {byId.get(o.recurring_id)?.payee ? (
                          <span className="kosh-muted"> · {byId.get(o.recurring_id)?.payee}</span>
                        ) : null}
                      </td>
                      <td data-label="Status">
                        <Tag minimal intent={tag.intent}>
                          {tag.label}
                        </Tag>
                      </td>
                      <td
                        data-label="Amount"
                        className={`kosh-num ${o.transaction_type === 'D' ? 'kosh-debit' : 'kosh-credit'}`}
                      >
                        {formatMoney(o.amount)}
                      </td>
                      <td data-label="Actions">
                        {o.status === 'posted' ? null : (
                          <div className="kosh-actions">
                            {o.status === 'due' ? (
                              <>
                                <Button
                                  small
                                  text="Skip"
                                  aria-label={`Skip ${name}`}
                                  onClick={() => skipOne(o)}
                                />
                                <Button
                                  small
                                  text="Change"
                                  aria-label={`Change ${name}`}
                                  onClick={() => setChanging(o)}
                                />
                              </>
                            ) : (
                              <Button
                                small
                                text="Restore"
                                aria-label={`Restore ${name}`}
                                onClick={() => restoreOne(o)}
                              />
                            )}
                          </div>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </HTMLTable>
          </TableScroll>
        )}
      </Card>
      {editing.open ? (
        <RecurringDialog editing={editing.entry} onClose={() => setEditing({ open: false })} />
      ) : null}
      <Alert
        isOpen={deleting !== null}
        intent="danger"
        icon="trash"
        cancelButtonText="Cancel"
        confirmButtonText="Delete Entry"
        onCancel={() => setDeleting(null)}
        onConfirm={async () => {
          if (deleting) await deleteEntry(deleting);
          setDeleting(null);
        }}
      >
        <p>
          Delete the recurring entry {deleting?.notes}? Nothing more is posted from it; what it posted stays
          in the transaction book.
        </p>
      </Alert>
      {changing ? <OccurrenceDialog occurrence={changing} onClose={() => setChanging(null)} /> : null}
    </>
  );
}
