import {
  fromPaise,
  occurrencesBetween,
  occurrenceValues,
  type Paise,
  REMINDER_KINDS,
  type ReminderKind,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { listRecurring, postedOccurrences, unpaidEmisBetween } from '@kosh/projections';

/** One thing a user is reminded of: its kind, what it is about (`subject`) and when it is due. */
export type DueReminder = Readonly<{
  kind: ReminderKind;
  /** Stable id of what is due (a loan's EMI, an entry): with the kind, user and date, the mail's key. */
  subject: string;
  /** How the mail names it. */
  title: string;
  dueDate: string;
  /** Paise. */
  amount: Paise;
  /** Money in ('C') or out ('D'). */
  direction: 'C' | 'D';
}>;

/**
 * Where reminders of one kind come from: what is due from `from` to `to` for the user. A new kind
 * (budget crossed) is a source here and a flag in `REMINDER_KINDS`.
 */
export type ReminderSource = Readonly<{
  kind: ReminderKind;
  due(db: Queryable, userId: string, from: string, to: string, today: string): Promise<DueReminder[]>;
}>;

/** EMIs not covered by what was marked paid or matched (the paid-EMI model): a paid one is not reminded. */
const emiDue: ReminderSource = {
  kind: 'emi-due',
  async due(db, userId, from, to, today) {
    const emis = await unpaidEmisBetween(db, userId, from, to, today);
    return emis.map((emi) => ({
      kind: 'emi-due',
      subject: `${emi.loanId}:${emi.emiNumber}`,
      title: `EMI ${emi.emiNumber} of ${emi.loanLabel}`,
      dueDate: emi.dueDate,
      amount: emi.amount,
      direction: 'D',
    }));
  },
};

/** Occurrences of the user's recurring entries not skipped and not yet posted. */
const recurringDue: ReminderSource = {
  kind: 'recurring-due',
  async due(db, userId, from, to) {
    const entries = await listRecurring(db, userId);
    const posted = new Set(
      (
        await postedOccurrences(
          db,
          entries.map((e) => e.id),
          from,
        )
      ).map((p) => `${p.recurringId}:${p.occurrenceDate}`),
    );
    return entries.flatMap((entry) =>
      occurrencesBetween(entry, from, to).flatMap((date) => {
        const values = occurrenceValues(entry, entry.exceptions, date);
        if (!values || posted.has(`${entry.id}:${date}`)) return [];
        return [
          {
            kind: 'recurring-due' as const,
            subject: entry.id,
            title: entry.payee ? `${values.notes} (${entry.payee})` : values.notes,
            dueDate: date,
            amount: values.amount,
            direction: entry.transactionType,
          },
        ];
      }),
    );
  },
};

export const REMINDER_SOURCES: readonly ReminderSource[] = [emiDue, recurringDue];

/** The flag of a kind among the preferences (a kind without a source is never asked). */
export const flagOf = (kind: ReminderKind) => REMINDER_KINDS[kind].flag;

/** ₹1,50,000.00 as the screens write amounts. */
export const rupees = (paise: Paise) =>
  new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(fromPaise(paise));
