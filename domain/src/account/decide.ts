import type { Decider } from '../shared/decider';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { changedKeys } from '../shared/field-table';
import { assertNever, type Command } from '../shared/messages';
import { type ColumnMapping, sameColumnMapping, validateColumnMapping } from '../statement/mapping';
import { ACCOUNT_MESSAGES, validateAccountDetails } from '../validation/account';
import type { AccountEvent } from './events';
import { ACCOUNT_FIELDS, type AccountDetails } from './fields';
import { type AccountState, accountDetailsOf, evolveAccount, initialAccountState } from './state';

type Ids = { accountId: string; userId: string; now: string };

export type OpenAccount = Command<'OpenAccount', AccountDetails & Ids>;
export type UpdateAccount = Command<'UpdateAccount', AccountDetails & Ids>;
/**
 * `entryCount`: the transactions and transfers the account's register holds, read by the route
 * from the accounts read model (the account's stream does not see them). An account with any is
 * refused (409).
 */
export type DeleteAccount = Command<'DeleteAccount', Ids & { entryCount: number }>;
/** Remember the mapping of a committed import for the next statement of its header shape. */
export type SaveImportMapping = Command<
  'SaveImportMapping',
  Ids & { headerKey: string; header: string[]; mapping: ColumnMapping }
>;
export type AccountCommand = OpenAccount | UpdateAccount | DeleteAccount | SaveImportMapping;

function validated(data: AccountDetails): AccountDetails {
  const details = accountDetailsOf(data);
  const errors = validateAccountDetails(details);
  if (errors.length > 0) throw new ValidationError(errors);
  return { ...details, name: details.name.trim() };
}

/** The owner's open account; anyone else's, a deleted one or a missing one is "not found". */
function owned(state: AccountState, userId: string) {
  if (state.status !== 'open' || state.userId !== userId)
    throw new NotFoundError(ACCOUNT_MESSAGES.accountNotFound);
  return state;
}

export function decideAccount(command: AccountCommand, state: AccountState): AccountEvent[] {
  const { type, data } = command;
  const ids = { accountId: data.accountId, userId: data.userId };
  switch (type) {
    case 'OpenAccount': {
      if (state.status !== 'none') throw new ConflictError('Account already exists');
      return [{ type: 'AccountOpened', data: { ...ids, ...validated(data), openedAt: data.now } }];
    }
    case 'UpdateAccount': {
      const current = owned(state, data.userId);
      const next = validated(data);
      const changes: Partial<AccountDetails> = Object.fromEntries(
        changedKeys(ACCOUNT_FIELDS, current.details, next).map((key) => [key, next[key]]),
      );
      if (Object.keys(changes).length === 0) return [];
      return [
        { type: 'AccountUpdated', data: { ...ids, changes, previous: current.details, updatedAt: data.now } },
      ];
    }
    case 'DeleteAccount': {
      const current = owned(state, data.userId);
      if (data.entryCount > 0)
        throw new ConflictError(ACCOUNT_MESSAGES.accountHasEntries, 'ACCOUNT_NOT_EMPTY');
      return [{ type: 'AccountDeleted', data: { ...ids, previous: current.details, deletedAt: data.now } }];
    }
    case 'SaveImportMapping': {
      const current = owned(state, data.userId);
      const errors = validateColumnMapping(data.mapping);
      if (errors.length > 0 || data.headerKey === '') throw new ValidationError(errors);
      const saved = current.importMappings[data.headerKey];
      if (saved && sameColumnMapping(saved, data.mapping)) return [];
      return [
        {
          type: 'AccountImportMappingSaved',
          data: {
            ...ids,
            headerKey: data.headerKey,
            header: data.header,
            mapping: data.mapping,
            savedAt: data.now,
          },
        },
      ];
    }
    default:
      return assertNever(type);
  }
}

export const accountDecider: Decider<AccountState, AccountCommand, AccountEvent> = {
  initialState: initialAccountState,
  evolve: evolveAccount,
  decide: decideAccount,
};
