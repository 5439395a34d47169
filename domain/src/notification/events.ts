/**
 * Events of a user's notification stream (`notifications-{userId}`, issue 31): the reminder
 * choices and the one-click unsubscribes, each token once.
 */
import type { DomainEvent } from '../shared/messages';
import type { NotificationPreferences, ReminderKind } from './fields';

export type NotificationPreferencesSet = DomainEvent<
  'NotificationPreferencesSet',
  {
    userId: string;
    /** The new values of the fields that changed, and only those. */
    changes: Partial<NotificationPreferences>;
    /** Every field as it was before (the defaults the first time). */
    previous: NotificationPreferences;
    updatedAt: string;
  }
>;

/** A reminder mail's unsubscribe link was used: its kind is off, and its token spent. */
export type ReminderUnsubscribed = DomainEvent<
  'ReminderUnsubscribed',
  { userId: string; kind: ReminderKind; tokenId: string; unsubscribedAt: string }
>;

export type NotificationEvent = NotificationPreferencesSet | ReminderUnsubscribed;

export const NOTIFICATION_EVENT_TYPES = [
  'NotificationPreferencesSet',
  'ReminderUnsubscribed',
] as const satisfies readonly NotificationEvent['type'][];

export const notificationStreamId = (userId: string): string => `notifications-${userId}`;
