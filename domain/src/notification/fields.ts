import { fieldTable, type RecordOf } from '../shared/field-table';

/**
 * A user's reminder mail choices (issue 31), kept on the server: one flag per kind of reminder,
 * each off until opted into, and how many days before the due date a reminder is mailed. A new
 * kind is one flag here and one entry in `REMINDER_KINDS`.
 */
export const NOTIFICATION_FIELDS = fieldTable({
  emiDue: { wire: 'emi_due', kind: 'flag', label: 'EMI Due Reminders', words: ['On', 'Off'], absent: false },
  recurringDue: {
    wire: 'recurring_due',
    kind: 'flag',
    label: 'Recurring Entry Reminders',
    words: ['On', 'Off'],
    absent: false,
  },
  budgetCrossed: {
    wire: 'budget_crossed',
    kind: 'flag',
    label: 'Budget Crossed Alerts',
    words: ['On', 'Off'],
    absent: false,
  },
  daysBefore: { wire: 'days_before', kind: 'int', label: 'Days Before', absent: 3 },
});

export type NotificationPreferences = RecordOf<typeof NOTIFICATION_FIELDS>;

export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  emiDue: false,
  recurringDue: false,
  budgetCrossed: false,
  daysBefore: 3,
};

export const DAYS_BEFORE_MAX = 30;

/** Every kind of reminder: its flag among the preferences and how mails and screens name it. */
export const REMINDER_KINDS = {
  'emi-due': { flag: 'emiDue', label: 'EMI due' },
  'recurring-due': { flag: 'recurringDue', label: 'Recurring entry due' },
  'budget-crossed': { flag: 'budgetCrossed', label: 'Budget crossed' },
} as const satisfies Record<string, { flag: keyof NotificationPreferences; label: string }>;

export type ReminderKind = keyof typeof REMINDER_KINDS;

export const isReminderKind = (value: unknown): value is ReminderKind =>
  typeof value === 'string' && Object.hasOwn(REMINDER_KINDS, value);
