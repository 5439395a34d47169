/**
 * Whose event this is, for the event store's per-user hash chain (event-store migration 009,
 * `kosh_event_owner`) and History (projections/src/history/projector.ts): ONE rule, generic over
 * streams, so a new stream type is chained and shown alike without a list to keep up to date.
 *
 * The owner is the acting user (metadata.userId), else the user the data names (registration is
 * anonymous), else the owner of a catalog entry (data.ownerUserId); no owner: nobody's (the
 * seeded catalog). Only the streams below are never anyone's, whatever their events name.
 * `projections/src/history/owner-rule.unit.spec.ts and event-store/src/chain.int.spec.ts` holds this function and the SQL one together
 * over every event type the domain declares.
 */
import { jsonbText } from './chain-hash';

/** `email-{sha256}`: an address's reservation, held by several accounts over time. */
export const EMAIL_STREAM_PREFIX = 'email-';
/** The log's own record of erased accounts (a keyed hash and a count; names no one). */
export const NON_PERSONAL_STREAMS: ReadonlySet<string> = new Set(['erased-accounts']);

/** Whether a stream's events may belong to a user (every stream but the few above). */
export function isPersonalStream(streamId: string): boolean {
  return !streamId.startsWith(EMAIL_STREAM_PREFIX) && !NON_PERSONAL_STREAMS.has(streamId);
}

/** The owner of an event as the chain and History see it (null: nobody's). */
export function eventOwner(streamId: string, data: unknown, metadata: unknown): string | null {
  if (!isPersonalStream(streamId)) return null;
  // As `->>` gives it: JSON null and absent are none, a string itself, anything else its jsonb text.
  const text = (value: unknown): string | null =>
    value === null || value === undefined ? null : typeof value === 'string' ? value : jsonbText(value);
  const m = (metadata ?? {}) as { userId?: unknown };
  const d = (data ?? {}) as { userId?: unknown; ownerUserId?: unknown };
  return text(m.userId) ?? text(d.userId) ?? text(d.ownerUserId);
}
