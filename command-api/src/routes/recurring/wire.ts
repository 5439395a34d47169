import type { WireOccurrence, WireRecurring } from '@kosh/contract';
import { fromPaise, occurrencesBetween, occurrenceValues, RECURRING_FIELDS, wireOf } from '@kosh/domain';
import type { PostedOccurrence, RecurringRow } from '@kosh/projections';

/** Every occurrence of `row` from `from` to `to`, with what it posts and where it stands. */
export function occurrencesOf(
  row: RecurringRow,
  posted: readonly PostedOccurrence[],
  from: string,
  to: string,
): WireOccurrence[] {
  const postedOn = new Map(posted.filter((p) => p.recurringId === row.id).map((p) => [p.occurrenceDate, p]));
  return occurrencesBetween(row, from, to).map((date) => {
    const values = occurrenceValues(row, row.exceptions, date);
    const posting = postedOn.get(date);
    return {
      recurring_id: row.id,
      date,
      transaction_type: row.transactionType,
      amount: fromPaise(values?.amount ?? row.amount),
      notes: values?.notes ?? row.notes,
      payee: row.payee ?? null,
      status: posting ? 'posted' : !values ? 'skipped' : values.changed ? 'changed' : 'due',
      transaction_id: posting?.transactionId ?? null,
    };
  });
}

/** The next occurrence on or after `today` that is still to post (not skipped, not posted). */
export function nextOccurrence(row: RecurringRow, posted: readonly PostedOccurrence[], today: string) {
  const horizon = `${Number(today.slice(0, 4)) + 2}${today.slice(4)}`;
  for (const occurrence of occurrencesOf(row, posted, today, horizon)) {
    if (occurrence.status === 'due' || occurrence.status === 'changed') return occurrence.date;
  }
  return null;
}

export function recurringToWire(
  row: RecurringRow,
  posted: readonly PostedOccurrence[],
  today: string,
): WireRecurring {
  const fields = wireOf(RECURRING_FIELDS, row);
  return {
    id: row.id,
    ...fields,
    payee: fields.payee ?? null,
    category_id: fields.category_id ?? null,
    account_id: fields.account_id ?? null,
    day_of_month: fields.day_of_month ?? null,
    end_date: fields.end_date ?? null,
    next_occurrence: nextOccurrence(row, posted, today),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    version: row.version,
  };
}
