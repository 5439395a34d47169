import {
  fromPaise,
  occurrencesBetween,
  occurrenceValues,
  type Paise,
  REMINDER_KINDS,
  type ReminderKind,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { budgetStatus, listRecurring, postedOccurrences, unpaidEmisBetween } from '@kosh/projections';

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
  /** What the mail says instead of "… is due on …" (a budget crossed is not due: it happened). */
  headline?: { subject: string; text: string };
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

/**
 * A budget overspent this month (the budgets read model's status, as the budget screen shows it):
 * one alert per budget and month. Its "due date" is the month's last day, so the key is the
 * month's and the alert is pointless once the month is over; `days_before` does not apply.
 */
const budgetCrossed: ReminderSource = {
  kind: 'budget-crossed',
  async due(db, userId, _from, _to, today) {
    const month = today.slice(0, 7);
    const [y, m] = month.split('-').map(Number) as [number, number];
    const monthEnd = `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
    const status = await budgetStatus(db, userId, month);
    return status
      .filter((b) => b.standing.overspent && !b.categoryGone)
      .map((b) => ({
        kind: 'budget-crossed' as const,
        subject: b.id,
        title: `${b.categoryName} budget`,
        dueDate: monthEnd,
        amount: -b.standing.remaining,
        direction: 'D' as const,
        headline: {
          subject: `Budget crossed: ${b.categoryName}`,
          text: `You have spent ${rupees(b.standing.spent)} on ${b.categoryName} this month, ${rupees(-b.standing.remaining)} over its budget of ${rupees(b.standing.available)}.`,
        },
      }));
  },
};

export const REMINDER_SOURCES: readonly ReminderSource[] = [emiDue, recurringDue, budgetCrossed];

/** The flag of a kind among the preferences (a kind without a source is never asked). */
export const flagOf = (kind: ReminderKind) => REMINDER_KINDS[kind].flag;

/** ₹1,50,000.00 as the screens write amounts. */
export const rupees = (paise: Paise) =>
  new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(fromPaise(paise));
