import type { RecordedEvent } from '@kosh/domain';

/**
 * Streams whose events may change rows that other users read: the lender catalog (names in
 * everyone's loans and ledger), audit grants and their reads (an owner's grant is the auditor's
 * row), and e-mail reservations (no user's data yet). A batch with one of these moves the read
 * model's shared count, which renews every user's tag.
 */
const SHARED_STREAM = /^(bank|loantype|audit|email)-/;

/** Streams named after their user: their events are that user's whoever recorded them. */
const USER_STREAM = /^(user|categories|erasure|notifications)-(.+)$/;

/**
 * Whose rows a batch of handled events may change (migration 004, the per-user change counts of
 * the answer cache's tags): `shared` when an event is owned by nobody or comes from a shared
 * stream, else each owner (`metadata.userId`, and the user a stream is named after).
 */
export function changedBy(events: readonly RecordedEvent[]): { shared: boolean; users: string[] } {
  let shared = false;
  const users = new Set<string>();
  for (const event of events) {
    const owner = event.metadata.userId;
    if (!owner || SHARED_STREAM.test(event.streamId)) {
      shared = true;
      continue;
    }
    users.add(owner);
    const named = USER_STREAM.exec(event.streamId)?.[2];
    if (named) users.add(named);
  }
  return { shared, users: [...users].sort() };
}
