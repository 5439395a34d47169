/**
 * Events of one account's stream (`account-{id}`). Money in paise. An update carries the values
 * before, so the history can show what changed without reading earlier events.
 */
import type { DomainEvent } from '../shared/messages';
import type { AccountDetails } from './fields';

export type AccountOpened = DomainEvent<
  'AccountOpened',
  AccountDetails & { accountId: string; userId: string; openedAt: string }
>;

export type AccountUpdated = DomainEvent<
  'AccountUpdated',
  {
    accountId: string;
    userId: string;
    /** The new values of the fields that changed, and only those. */
    changes: Partial<AccountDetails>;
    /** Every field as it was before this update. */
    previous: AccountDetails;
    updatedAt: string;
  }
>;

export type AccountDeleted = DomainEvent<
  'AccountDeleted',
  { accountId: string; userId: string; previous: AccountDetails; deletedAt: string }
>;

export type AccountEvent = AccountOpened | AccountUpdated | AccountDeleted;

export const ACCOUNT_EVENT_TYPES = [
  'AccountOpened',
  'AccountUpdated',
  'AccountDeleted',
] as const satisfies readonly AccountEvent['type'][];

export const accountStreamId = (accountId: string): string => `account-${accountId}`;
