/**
 * Events of one account's stream (`account-{id}`). Money in paise. An update carries the values
 * before, so the history can show what changed without reading earlier events.
 */
import type { DomainEvent } from '../shared/messages';
import type { ColumnMapping } from '../statement/mapping';
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

/**
 * The column mapping the user chose for a statement of this header shape (issue 30 item 3),
 * remembered when its import was committed and proposed for the next file of the same shape
 * uploaded to this account. `headerKey`: the header row's cells as compared (`headerShapeKey`).
 */
export type AccountImportMappingSaved = DomainEvent<
  'AccountImportMappingSaved',
  {
    accountId: string;
    userId: string;
    headerKey: string;
    /** The header row as the file wrote it. */
    header: string[];
    mapping: ColumnMapping;
    savedAt: string;
  }
>;

export type AccountEvent = AccountOpened | AccountUpdated | AccountDeleted | AccountImportMappingSaved;

export const ACCOUNT_EVENT_TYPES = [
  'AccountOpened',
  'AccountUpdated',
  'AccountDeleted',
  'AccountImportMappingSaved',
] as const satisfies readonly AccountEvent['type'][];

export const accountStreamId = (accountId: string): string => `account-${accountId}`;
