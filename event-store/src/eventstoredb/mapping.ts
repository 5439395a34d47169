/**
 * Pure translations between Kosh's event store contract (port.ts) and the KurrentDB /
 * EventStoreDB client's types. No I/O here, so every rule is unit-tested without a server.
 */
import { createHash } from 'node:crypto';
import type { EventMetadata, RecordedEvent } from '@kosh/domain';
import {
  ANY,
  type AppendStreamState,
  type CurrentStreamState,
  type EventData,
  eventTypeFilter,
  excludeSystemEvents,
  type Filter,
  jsonEvent,
  NO_STREAM,
  type Position,
  type ReadPosition,
  START,
  type StreamState,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import { ConcurrencyError, type ExpectedVersion, type NewEvent, START_POSITION } from '../port';

/**
 * A position token: commit and prepare position of `$all`, each zero-padded to 20 digits (the
 * largest unsigned 64-bit number has 20), so tokens compare as strings in log order, as the
 * PostgreSQL adapter's 'xid:position' tokens do, and `projection_checkpoints.position`
 * (COLLATE "C") keeps working. `$all` is ordered by commit position, then prepare position.
 */
const TOKEN = /^(\d{20}):(\d{20})$/;
const U64_MAX = 2n ** 64n - 1n;

export function positionToToken(position: Position): string {
  for (const part of [position.commit, position.prepare]) {
    if (part < 0n || part > U64_MAX) throw new RangeError(`Position out of range: ${part}`);
  }
  return `${position.commit.toString().padStart(20, '0')}:${position.prepare.toString().padStart(20, '0')}`;
}

export function tokenToPosition(token: string): Position {
  const m = TOKEN.exec(token);
  if (!m) throw new Error(`Invalid event position token: ${JSON.stringify(token)}`);
  return { commit: BigInt(m[1]!), prepare: BigInt(m[2]!) };
}

/** Where a forward `$all` read after `after` starts (inclusive: the caller drops `after` itself). */
export function readAllStart(after: string | null | undefined): ReadPosition {
  if (after === undefined || after === null || after === START_POSITION) return START;
  return tokenToPosition(after);
}

/**
 * Kosh counts events (version n = n events, 0 = none); the server names the revision of the
 * last event (0-based). So exact version n is revision n - 1, and version 0 is "no stream".
 */
export function toStreamState(expected: ExpectedVersion): StreamState {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  if (!Number.isSafeInteger(expected) || expected < 0 || expected > 2_147_483_647) {
    throw new RangeError(
      `expectedVersion must be a non-negative integer, 'no_stream' or 'any'; got ${expected}`,
    );
  }
  return expected === 0 ? NO_STREAM : BigInt(expected - 1);
}

/** The stream's version (event count) from the server's current state of it. */
export function versionOf(state: CurrentStreamState | AppendStreamState): number {
  if (typeof state === 'bigint') return Number(state) + 1;
  return 0;
}

/** Version after an append, from the client's `nextExpectedRevision` (revision of the last event). */
export function nextVersionOf(nextExpectedRevision: bigint): number {
  return nextExpectedRevision < 0n ? 0 : Number(nextExpectedRevision) + 1;
}

/** The server's optimistic-concurrency failure as Kosh's; any other error passes through. */
export function toConcurrencyError(
  error: unknown,
  streamId: string,
  expected: ExpectedVersion,
): ConcurrencyError | null {
  if (!(error instanceof WrongExpectedVersionError)) return null;
  return new ConcurrencyError(streamId, expected, versionOf(error.actualState));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The server's event ids are UUIDs and its idempotency is keyed on them. Kosh ids that are
 * UUIDs pass as they are; others (the catalog seed's `seed-bank-…`) get a name-based UUID
 * (RFC 9562 version 5 layout over SHA-1), the same on every append, so a re-append still
 * carries the same id. The original id travels in the metadata.
 */
export function serverEventId(id: string): string {
  if (UUID.test(id)) return id.toLowerCase();
  const hash = createHash('sha1').update(`kosh-event-id:${id}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Metadata key holding a Kosh event id that is not a UUID. */
export const KOSH_EVENT_ID = 'koshEventId';

type StoredMetadata = EventMetadata & {
  $correlationId: string;
  $causationId?: string;
  [KOSH_EVENT_ID]?: string;
};

/**
 * Kosh's metadata plus the server's own `$correlationId` / `$causationId` (its system
 * projections and UI read those), and the original id when it is not a UUID.
 */
export function toEventData(event: NewEvent): EventData {
  const id = serverEventId(event.id);
  const metadata: StoredMetadata = {
    ...event.metadata,
    $correlationId: event.metadata.correlationId,
    ...(event.metadata.causationId !== null ? { $causationId: event.metadata.causationId } : {}),
    ...(id !== event.id ? { [KOSH_EVENT_ID]: event.id } : {}),
  };
  // The client's JSON types leave out null; Kosh data is any JSON value and is stored as its JSON text.
  return jsonEvent({ id, type: event.type, data: (event.data ?? null) as never, metadata });
}

/** What the client hands back for one recorded event (stream or `$all` read, subscription). */
export type ServerRecordedEvent = Readonly<{
  id: string;
  streamId: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  position?: Position;
}>;

/** A recorded event as Kosh's, without the server's `$` keys; null for events Kosh did not write. */
export function fromServerEvent(event: ServerRecordedEvent): RecordedEvent | null {
  if (!event.position) throw new Error(`Event ${event.id} of ${event.streamId} came without a position`);
  const raw = event.metadata;
  if (raw === null || typeof raw !== 'object' || raw instanceof Uint8Array) return null;
  const { [KOSH_EVENT_ID]: originalId, ...rest } = raw as Record<string, unknown>;
  const metadata = Object.fromEntries(Object.entries(rest).filter(([key]) => !key.startsWith('$')));
  return {
    id: typeof originalId === 'string' ? originalId : event.id,
    streamId: event.streamId,
    streamVersion: Number(event.revision) + 1,
    position: positionToToken(event.position),
    type: event.type,
    data: event.data,
    metadata: metadata as EventMetadata,
  };
}

/** User events only: the server's own (`$`-prefixed types: stream metadata, stats, …) are not Kosh's. */
export function readAllFilter(): Filter {
  return excludeSystemEvents();
}

/**
 * Wake-ups come for Kosh's event types only (exact names); without a list, for every
 * non-system event.
 */
export function subscriptionFilter(eventTypes?: readonly string[]): Filter {
  if (!eventTypes || eventTypes.length === 0) return excludeSystemEvents();
  const escaped = [...new Set(eventTypes)].sort().map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return eventTypeFilter({ regex: `^(?:${escaped.join('|')})$` });
}
