/**
 * Messages are `{ type, data }`; what the store adds when it records one is `RecordedEvent`.
 * Commands are imperative (`CreateLoan`), events past tense (`LoanCreated`).
 */
export type Message<Type extends string = string, Data = unknown> = Readonly<{ type: Type; data: Data }>;
export type Command<Type extends string = string, Data = unknown> = Message<Type, Data>;
export type DomainEvent<Type extends string = string, Data = unknown> = Message<Type, Data>;

export type EventMetadata = Readonly<{
  /** Owner of the data the event belongs to (null for catalog seed events). */
  userId: string | null;
  correlationId: string;
  causationId: string | null;
  /** ISO-8601 UTC instant at which the command was handled. */
  recordedAt: string;
  /**
   * 1 on every event written so far. Old shapes are told by what they lack, not by this number:
   * `upcastLoanEvent` (loan/payments.ts) reads them as today's.
   */
  schemaVersion: number;
}>;

/** An event as the store returns it. `position` is the global position token (sorts as a string). */
export type RecordedEvent<E extends DomainEvent = DomainEvent> = E &
  Readonly<{
    id: string;
    streamId: string;
    /** 1 for the first event of a stream. */
    streamVersion: number;
    position: string;
    metadata: EventMetadata;
  }>;

/** Exhaustiveness check for a `switch` on `type`. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
