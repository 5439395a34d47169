/**
 * Events of one transfer's stream (`transfer-{id}`): one event moves money between two of the
 * user's accounts, shown as two legs (out of one register, into the other). A transfer is never
 * income or expense: the transaction book, its totals and the ledger do not read these events.
 */
import type { DomainEvent } from '../shared/messages';
import type { TransferFields } from '../validation/account';

export type TransferRecorded = DomainEvent<
  'TransferRecorded',
  TransferFields & { transferId: string; userId: string; recordedAt: string }
>;

export type TransferDeleted = DomainEvent<
  'TransferDeleted',
  { transferId: string; userId: string; previous: TransferFields; deletedAt: string }
>;

export type TransferEvent = TransferRecorded | TransferDeleted;

export const TRANSFER_EVENT_TYPES = [
  'TransferRecorded',
  'TransferDeleted',
] as const satisfies readonly TransferEvent['type'][];

export const transferStreamId = (transferId: string): string => `transfer-${transferId}`;
