import type { Decider } from '../shared/decider';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { assertNever, type Command } from '../shared/messages';
import { type TransferFields, validateTransferFields } from '../validation/account';
import type { TransferEvent } from './events';

export const TRANSFER_NOT_FOUND = 'Transfer not found';

export type TransferState =
  | { status: 'none' }
  | { status: 'recorded'; transferId: string; userId: string; fields: TransferFields }
  | { status: 'deleted'; transferId: string; userId: string };

export function evolveTransfer(_state: TransferState, event: TransferEvent): TransferState {
  const { type, data } = event;
  switch (type) {
    case 'TransferRecorded': {
      const { fromAccountId, toAccountId, amount, transferDate, notes } = data;
      return {
        status: 'recorded',
        transferId: data.transferId,
        userId: data.userId,
        fields: { fromAccountId, toAccountId, amount, transferDate, notes },
      };
    }
    case 'TransferDeleted':
      return { status: 'deleted', transferId: data.transferId, userId: data.userId };
    default:
      return assertNever(type);
  }
}

type Ids = { transferId: string; userId: string; now: string };

/** Both accounts are the user's own open accounts: the route checks that against their streams. */
export type RecordTransfer = Command<'RecordTransfer', TransferFields & Ids>;
export type DeleteTransfer = Command<'DeleteTransfer', Ids>;
export type TransferCommand = RecordTransfer | DeleteTransfer;

export function decideTransfer(command: TransferCommand, state: TransferState): TransferEvent[] {
  const { type, data } = command;
  switch (type) {
    case 'RecordTransfer': {
      if (state.status !== 'none') throw new ConflictError('Transfer already exists');
      const { fromAccountId, toAccountId, amount, transferDate, notes } = data;
      const fields = { fromAccountId, toAccountId, amount, transferDate, notes: notes.trim() };
      const errors = validateTransferFields(fields);
      if (errors.length > 0) throw new ValidationError(errors);
      return [
        {
          type: 'TransferRecorded',
          data: { transferId: data.transferId, userId: data.userId, ...fields, recordedAt: data.now },
        },
      ];
    }
    case 'DeleteTransfer': {
      if (state.status !== 'recorded' || state.userId !== data.userId)
        throw new NotFoundError(TRANSFER_NOT_FOUND);
      return [
        {
          type: 'TransferDeleted',
          data: {
            transferId: data.transferId,
            userId: data.userId,
            previous: state.fields,
            deletedAt: data.now,
          },
        },
      ];
    }
    default:
      return assertNever(type);
  }
}

export const transferDecider: Decider<TransferState, TransferCommand, TransferEvent> = {
  initialState: (): TransferState => ({ status: 'none' }),
  evolve: evolveTransfer,
  decide: decideTransfer,
};
