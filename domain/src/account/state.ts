import { assertNever } from '../shared/messages';
import type { ColumnMapping } from '../statement/mapping';
import type { AccountEvent } from './events';
import { ACCOUNT_FIELD_NAMES, type AccountDetails } from './fields';

export type AccountState =
  | { status: 'none' }
  | {
      status: 'open';
      accountId: string;
      userId: string;
      details: AccountDetails;
      /** The statement column mappings remembered for this account, by header shape. */
      importMappings: Readonly<Record<string, ColumnMapping>>;
    }
  | { status: 'deleted'; accountId: string; userId: string };

export const initialAccountState = (): AccountState => ({ status: 'none' });

/** The details of an event or command, and nothing else it carries. */
export function accountDetailsOf(data: AccountDetails): AccountDetails {
  return Object.fromEntries(ACCOUNT_FIELD_NAMES.map((name) => [name, data[name]])) as AccountDetails;
}

export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  const { type, data } = event;
  switch (type) {
    case 'AccountOpened':
      return {
        status: 'open',
        accountId: data.accountId,
        userId: data.userId,
        details: accountDetailsOf(data),
        importMappings: {},
      };
    case 'AccountUpdated':
      return state.status === 'open' ? { ...state, details: { ...state.details, ...data.changes } } : state;
    case 'AccountDeleted':
      return { status: 'deleted', accountId: data.accountId, userId: data.userId };
    case 'AccountImportMappingSaved':
      return state.status === 'open'
        ? { ...state, importMappings: { ...state.importMappings, [data.headerKey]: data.mapping } }
        : state;
    default:
      return assertNever(type);
  }
}
