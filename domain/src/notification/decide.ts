import type { Decider } from '../shared/decider';
import { ConflictError, ValidationError } from '../shared/errors';
import { changedKeys, pickFields } from '../shared/field-table';
import { assertNever, type Command } from '../shared/messages';
import type { NotificationEvent } from './events';
import {
  DAYS_BEFORE_MAX,
  DEFAULT_NOTIFICATION_PREFERENCES,
  NOTIFICATION_FIELDS,
  type NotificationPreferences,
  REMINDER_KINDS,
  type ReminderKind,
} from './fields';

export type NotificationState = Readonly<{
  preferences: NotificationPreferences;
  /** Unsubscribe tokens already used: each link works once. */
  usedTokens: ReadonlySet<string>;
}>;

export const initialNotificationState = (): NotificationState => ({
  preferences: DEFAULT_NOTIFICATION_PREFERENCES,
  usedTokens: new Set(),
});

export function evolveNotifications(state: NotificationState, event: NotificationEvent): NotificationState {
  const { type, data } = event;
  switch (type) {
    case 'NotificationPreferencesSet':
      return { ...state, preferences: { ...state.preferences, ...data.changes } };
    case 'ReminderUnsubscribed':
      return {
        preferences: { ...state.preferences, [REMINDER_KINDS[data.kind].flag]: false },
        usedTokens: new Set([...state.usedTokens, data.tokenId]),
      };
    default:
      return assertNever(type);
  }
}

type Ids = { userId: string; now: string };
export type SetNotificationPreferences = Command<'SetNotificationPreferences', NotificationPreferences & Ids>;
export type UnsubscribeReminder = Command<
  'UnsubscribeReminder',
  Ids & { kind: ReminderKind; tokenId: string }
>;
export type NotificationCommand = SetNotificationPreferences | UnsubscribeReminder;

export const NOTIFICATION_MESSAGES = {
  flag: 'Must be true or false',
  daysBefore: `Days before must be a whole number from 0 to ${DAYS_BEFORE_MAX}`,
  linkUsed: 'This unsubscribe link was already used',
} as const;

/** The preferences of a body (wire names), or every failing field. */
export function parseNotificationPreferences(
  body: Readonly<Record<string, unknown>>,
):
  | { ok: true; value: NotificationPreferences }
  | { ok: false; errors: { field: string; message: string }[] } {
  const errors: { field: string; message: string }[] = [];
  const flag = (wire: string): boolean => {
    const value = body[wire];
    if (typeof value === 'boolean') return value;
    errors.push({ field: wire, message: NOTIFICATION_MESSAGES.flag });
    return false;
  };
  const emiDue = flag(NOTIFICATION_FIELDS.emiDue.wire);
  const recurringDue = flag(NOTIFICATION_FIELDS.recurringDue.wire);
  // Budget alerts came later: a body without the flag keeps them off.
  const budgetCrossed =
    body[NOTIFICATION_FIELDS.budgetCrossed.wire] === undefined
      ? false
      : flag(NOTIFICATION_FIELDS.budgetCrossed.wire);
  const rawDays = body[NOTIFICATION_FIELDS.daysBefore.wire];
  const daysText =
    typeof rawDays === 'number' ? String(rawDays) : typeof rawDays === 'string' ? rawDays.trim() : '';
  const days = rawDays === undefined || rawDays === null || daysText === '' ? 3 : Number(daysText);
  const typed =
    rawDays === undefined || rawDays === null || typeof rawDays === 'number' || typeof rawDays === 'string';
  if (!typed || !/^\d{0,2}$/.test(daysText) || days > DAYS_BEFORE_MAX)
    errors.push({ field: NOTIFICATION_FIELDS.daysBefore.wire, message: NOTIFICATION_MESSAGES.daysBefore });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: { emiDue, recurringDue, budgetCrossed, daysBefore: days } };
}

export function decideNotifications(
  command: NotificationCommand,
  state: NotificationState,
): NotificationEvent[] {
  const { type, data } = command;
  switch (type) {
    case 'SetNotificationPreferences': {
      const next = pickFields(NOTIFICATION_FIELDS, data);
      const parsed = parseNotificationPreferences({
        emi_due: next.emiDue,
        recurring_due: next.recurringDue,
        budget_crossed: next.budgetCrossed,
        days_before: next.daysBefore,
      });
      if (!parsed.ok) throw new ValidationError(parsed.errors);
      const changed = changedKeys(NOTIFICATION_FIELDS, state.preferences, next);
      if (changed.length === 0) return [];
      const changes = Object.fromEntries(changed.map((key) => [key, next[key]]));
      return [
        {
          type: 'NotificationPreferencesSet',
          data: { userId: data.userId, changes, previous: state.preferences, updatedAt: data.now },
        },
      ];
    }
    case 'UnsubscribeReminder': {
      if (state.usedTokens.has(data.tokenId))
        throw new ConflictError(NOTIFICATION_MESSAGES.linkUsed, 'LINK_USED');
      return [
        {
          type: 'ReminderUnsubscribed',
          data: { userId: data.userId, kind: data.kind, tokenId: data.tokenId, unsubscribedAt: data.now },
        },
      ];
    }
    default:
      return assertNever(type);
  }
}

export const notificationDecider: Decider<NotificationState, NotificationCommand, NotificationEvent> = {
  initialState: initialNotificationState,
  evolve: evolveNotifications,
  decide: decideNotifications,
};
