import {
  IMPORT_EVENT_TYPES,
  type ImportEvent,
  importedTransactionEvents,
  type RecordedEvent,
  type TransactionEvent,
} from '@kosh/domain';

const IMPORT_TYPES = new Set<string>(IMPORT_EVENT_TYPES);

/**
 * A batch with each statement import's event in place of the transactions it records or removes
 * (issue 30: one `ImportCommitted` holds every row of the batch, the event store appending to one
 * stream at a time). The read models that fold transactions (book, registers, ledger) read an
 * import through this, so an imported row is folded exactly as a typed one.
 */
export function withImportedTransactions<E extends RecordedEvent>(
  events: readonly E[],
): (Exclude<E, RecordedEvent<ImportEvent>> | RecordedEvent<TransactionEvent>)[] {
  type Out = Exclude<E, RecordedEvent<ImportEvent>> | RecordedEvent<TransactionEvent>;
  if (!events.some((event) => IMPORT_TYPES.has(event.type)))
    return events as readonly RecordedEvent[] as Out[];
  return events.flatMap((event): Out[] =>
    IMPORT_TYPES.has(event.type)
      ? importedTransactionEvents(event as RecordedEvent as RecordedEvent<ImportEvent>)
      : [event as RecordedEvent as Out],
  );
}
