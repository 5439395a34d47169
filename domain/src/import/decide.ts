import type { Decider } from '../shared/decider';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { assertNever, type Command, type RecordedEvent } from '../shared/messages';
import {
  type DeleteTransaction,
  decide as decideTransaction,
  TRANSACTION_NOT_FOUND,
  type UpdateTransaction,
} from '../transaction/decide';
import type { TransactionEvent } from '../transaction/events';
import type { TransactionState } from '../transaction/state';
import { type TransactionFields, validateTransactionFields } from '../validation/transaction';
import type { ImportCommitted, ImportEvent, ImportedRow } from './events';

export const IMPORT_NOT_FOUND = 'Import not found';

/** An imported row as its import's stream leaves it: its fields and the stream version that last changed it. */
export type ImportedRowState = { fields: TransactionFields; version: number; recordedAt: string };

export type ImportState =
  | { status: 'none' }
  | {
      status: 'committed';
      importId: string;
      userId: string;
      accountId: string;
      /** The rows still in the book (an imported row deleted on its own is gone from here). */
      rows: Map<string, ImportedRowState>;
      /** Stream version of the last event folded. */
      version: number;
    }
  | { status: 'undone'; importId: string; userId: string };

const fieldsOfRow = (row: ImportedRow, accountId: string): TransactionFields => ({
  transactionType: row.transactionType,
  transactionDate: row.transactionDate,
  amount: row.amount,
  notes: row.notes,
  accountId,
});

export function evolveImport(state: ImportState, event: ImportEvent): ImportState {
  const { type, data } = event;
  const version = ((state.status === 'committed' && state.version) || 0) + 1;
  switch (type) {
    case 'ImportCommitted':
      return {
        status: 'committed',
        importId: data.importId,
        userId: data.userId,
        accountId: data.accountId,
        rows: new Map(
          data.rows.map((row) => [
            row.transactionId,
            { fields: fieldsOfRow(row, data.accountId), version, recordedAt: data.committedAt },
          ]),
        ),
        version,
      };
    case 'ImportedTransactionUpdated': {
      if (state.status !== 'committed') return state;
      const row = state.rows.get(data.transactionId);
      if (row)
        state.rows.set(data.transactionId, { ...row, fields: { ...row.fields, ...data.changes }, version });
      return { ...state, version };
    }
    case 'ImportedTransactionDeleted':
      if (state.status !== 'committed') return state;
      state.rows.delete(data.transactionId);
      return { ...state, version };
    case 'ImportUndone':
      return { status: 'undone', importId: data.importId, userId: data.userId };
    default:
      return assertNever(type);
  }
}

type Ids = { importId: string; userId: string; now: string };

/** The rows were read and chosen by the preview; the route checks the account is the user's. */
export type CommitImport = Command<
  'CommitImport',
  Ids &
    Pick<
      ImportCommitted['data'],
      'accountId' | 'fileName' | 'format' | 'preset' | 'rows' | 'skippedRows' | 'balanceMismatchConfirmed'
    >
>;
export type UndoImport = Command<'UndoImport', Ids>;

/**
 * An imported row edited or deleted like any transaction (PUT/DELETE /api/transactions/{id}):
 * decided as the transaction's own command would be, on the row as its import leaves it.
 * `expectedVersion`: the row's version the client last saw (If-Match), 409 when it moved.
 */
export type UpdateImportedTransaction = Command<
  'UpdateImportedTransaction',
  Omit<UpdateTransaction['data'], 'transactionId'> & {
    importId: string;
    transactionId: string;
    expectedVersion?: number;
  }
>;
export type DeleteImportedTransaction = Command<
  'DeleteImportedTransaction',
  Omit<DeleteTransaction['data'], 'transactionId'> & {
    importId: string;
    transactionId: string;
    expectedVersion?: number;
  }
>;
export type ImportCommand = CommitImport | UndoImport | UpdateImportedTransaction | DeleteImportedTransaction;

/** The imported row as the transaction decider sees a transaction; another user's or a gone row is its 404. */
function rowAsTransaction(
  state: ImportState,
  data: { transactionId: string; userId: string; expectedVersion?: number },
) {
  const row =
    state.status === 'committed' && state.userId === data.userId
      ? state.rows.get(data.transactionId)
      : undefined;
  if (!row) throw new NotFoundError(TRANSACTION_NOT_FOUND);
  if (data.expectedVersion !== undefined && data.expectedVersion !== row.version)
    throw new ConflictError(STALE_ROW_MESSAGE, 'STALE_VERSION');
  const transaction: TransactionState = {
    status: 'recorded',
    transactionId: data.transactionId,
    userId: data.userId,
    fields: row.fields,
    recordedAt: row.recordedAt,
  };
  return transaction;
}

/** As the API says it of a stale If-Match (command-api handle.ts). */
const STALE_ROW_MESSAGE = 'This record was changed elsewhere. Reload it and try again.';

export function decideImport(command: ImportCommand, state: ImportState): ImportEvent[] {
  const { type, data } = command;
  switch (type) {
    case 'CommitImport': {
      if (state.status !== 'none')
        throw new ConflictError('This import was committed already', 'IMPORT_COMMITTED');
      const errors = data.rows.flatMap((row) =>
        validateTransactionFields(row).map((error) => ({
          field: `line ${row.line}`,
          message: error.message,
        })),
      );
      if (errors.length > 0) throw new ValidationError(errors.slice(0, 50));
      const { importId, userId, now, ...fields } = data;
      return [{ type: 'ImportCommitted', data: { importId, userId, ...fields, committedAt: now } }];
    }
    case 'UndoImport': {
      if (state.status === 'none' || state.userId !== data.userId) throw new NotFoundError(IMPORT_NOT_FOUND);
      if (state.status === 'undone')
        throw new ConflictError('This import was undone already', 'IMPORT_UNDONE');
      return [
        {
          type: 'ImportUndone',
          data: {
            importId: data.importId,
            userId: data.userId,
            accountId: state.accountId,
            // Every row still in the book, edited or not; a row deleted on its own is gone already.
            transactionIds: [...state.rows.keys()],
            undoneAt: data.now,
          },
        },
      ];
    }
    case 'UpdateImportedTransaction': {
      const { importId, expectedVersion: _, ...rest } = data;
      const events = decideTransaction(
        { type: 'UpdateTransaction', data: rest },
        rowAsTransaction(state, data),
      );
      return events.flatMap((event): ImportEvent[] =>
        event.type === 'TransactionUpdated'
          ? [{ type: 'ImportedTransactionUpdated', data: { importId, ...event.data } }]
          : [],
      );
    }
    case 'DeleteImportedTransaction': {
      const { importId, expectedVersion: _, ...rest } = data;
      const events = decideTransaction(
        { type: 'DeleteTransaction', data: rest },
        rowAsTransaction(state, data),
      );
      return events.flatMap((event): ImportEvent[] =>
        event.type === 'TransactionDeleted'
          ? [{ type: 'ImportedTransactionDeleted', data: { importId, ...event.data } }]
          : [],
      );
    }
    default:
      return assertNever(type);
  }
}

export const importDecider: Decider<ImportState, ImportCommand, ImportEvent> = {
  initialState: (): ImportState => ({ status: 'none' }),
  evolve: evolveImport,
  decide: decideImport,
};

/** The transaction an imported row records, as its TransactionRecorded would carry it. */
function recorded(row: ImportedRow, data: ImportCommitted['data']) {
  return {
    transactionId: row.transactionId,
    userId: data.userId,
    notes: row.notes,
    transactionType: row.transactionType,
    transactionDate: row.transactionDate,
    amount: row.amount,
    accountId: data.accountId,
    ...(row.categoryId && { categoryId: row.categoryId }),
    ...(row.payee && { payee: row.payee }),
    recordedAt: data.committedAt,
    rawNarration: row.rawNarration,
    importId: data.importId,
  };
}

/**
 * The transactions an import event records, changes or removes, as the events of their own
 * streams would, at the import stream's version (commit 1; an edit or delete of one row, and the
 * undo, later): the read models that fold transactions fold an import through these, so an
 * imported row is in the book, the registers and the ledger exactly as a typed one, and the
 * undo's removal comes after every edit of its rows. `only`: the events of that transaction
 * alone. An undo's `previous` values are taken from the commit (`committed`) when given.
 */
export function importedTransactionEvents(
  event: RecordedEvent<ImportEvent>,
  committed?: ImportCommitted['data'],
  only?: string,
): RecordedEvent<TransactionEvent>[] {
  const base = {
    position: event.position,
    metadata: event.metadata,
    streamVersion: event.streamVersion,
  };
  const of = (transactionId: string) => ({
    ...base,
    id: `${event.id}:${transactionId}`,
    streamId: `txn-${transactionId}`,
  });
  switch (event.type) {
    case 'ImportCommitted': {
      const rows =
        only === undefined ? event.data.rows : event.data.rows.filter((row) => row.transactionId === only);
      return rows.map((row) => ({
        ...of(row.transactionId),
        type: 'TransactionRecorded' as const,
        data: recorded(row, event.data),
      })) as RecordedEvent<TransactionEvent>[];
    }
    case 'ImportedTransactionUpdated':
    case 'ImportedTransactionDeleted': {
      if (only !== undefined && event.data.transactionId !== only) return [];
      const { importId: _, ...data } = event.data;
      const type = event.type === 'ImportedTransactionUpdated' ? 'TransactionUpdated' : 'TransactionDeleted';
      return [{ ...of(event.data.transactionId), type, data }] as RecordedEvent<TransactionEvent>[];
    }
    case 'ImportUndone': {
      const rows = new Map((committed?.rows ?? []).map((row) => [row.transactionId, row]));
      const ids =
        only === undefined
          ? event.data.transactionIds
          : event.data.transactionIds.filter((id) => id === only);
      return ids.map((transactionId) => {
        const row = rows.get(transactionId);
        const previous = row
          ? fieldsOfRow(row, event.data.accountId)
          : {
              notes: '',
              transactionType: 'D' as const,
              transactionDate: '1970-01-01',
              amount: 0,
              accountId: null,
            };
        return {
          ...of(transactionId),
          type: 'TransactionDeleted' as const,
          data: { transactionId, userId: event.data.userId, previous, deletedAt: event.data.undoneAt },
        };
      }) as RecordedEvent<TransactionEvent>[];
    }
    default:
      return assertNever(event);
  }
}
