import type { Decider } from '../shared/decider';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { assertNever, type Command, type RecordedEvent } from '../shared/messages';
import type { TransactionEvent } from '../transaction/events';
import { validateTransactionFields } from '../validation/transaction';
import type { ImportCommitted, ImportEvent, ImportedRow } from './events';

export const IMPORT_NOT_FOUND = 'Import not found';

export type ImportState =
  | { status: 'none' }
  | { status: 'committed'; importId: string; userId: string; accountId: string; transactionIds: string[] }
  | { status: 'undone'; importId: string; userId: string };

export function evolveImport(_state: ImportState, event: ImportEvent): ImportState {
  const { type, data } = event;
  switch (type) {
    case 'ImportCommitted':
      return {
        status: 'committed',
        importId: data.importId,
        userId: data.userId,
        accountId: data.accountId,
        transactionIds: data.rows.map((row) => row.transactionId),
      };
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
export type ImportCommand = CommitImport | UndoImport;

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
            transactionIds: state.transactionIds,
            undoneAt: data.now,
          },
        },
      ];
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
 * The transactions an import event records or removes, as the events of their own streams
 * would (version 1 recorded, version 2 deleted): the read models that fold transactions fold an
 * import through these, so an imported row is in the book, the registers and the ledger exactly
 * as a typed one. An undo's rows are taken from the commit (`committed`), which the undo follows.
 */
export function importedTransactionEvents(
  event: RecordedEvent<ImportEvent>,
  committed?: ImportCommitted['data'],
): RecordedEvent<TransactionEvent>[] {
  const base = { position: event.position, metadata: event.metadata };
  if (event.type === 'ImportCommitted') {
    return event.data.rows.map((row) => ({
      ...base,
      id: `${event.id}:${row.transactionId}`,
      streamId: `txn-${row.transactionId}`,
      streamVersion: 1,
      type: 'TransactionRecorded' as const,
      data: recorded(row, event.data),
    })) as RecordedEvent<TransactionEvent>[];
  }
  const rows = new Map((committed?.rows ?? []).map((row) => [row.transactionId, row]));
  return event.data.transactionIds.map((transactionId) => {
    const row = rows.get(transactionId);
    const previous = row
      ? {
          notes: row.notes,
          transactionType: row.transactionType,
          transactionDate: row.transactionDate,
          amount: row.amount,
          accountId: event.data.accountId,
        }
      : {
          notes: '',
          transactionType: 'D' as const,
          transactionDate: '1970-01-01',
          amount: 0,
          accountId: null,
        };
    return {
      ...base,
      id: `${event.id}:${transactionId}`,
      streamId: `txn-${transactionId}`,
      streamVersion: 2,
      type: 'TransactionDeleted' as const,
      data: { transactionId, userId: event.data.userId, previous, deletedAt: event.data.undoneAt },
    };
  }) as RecordedEvent<TransactionEvent>[];
}
