import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '@kosh/domain';
import {
  type AllStreamRecordedEvent,
  ANY,
  EVENT_TYPE,
  NO_STREAM,
  type Position,
  START,
  UnavailableError,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { ConcurrencyError, type NewEvent } from '../port';
import {
  fromServerEvent,
  KOSH_EVENT_ID,
  nextVersionOf,
  positionToToken,
  readAllFilter,
  readAllStart,
  serverEventId,
  subscriptionFilter,
  toConcurrencyError,
  toEventData,
  tokenToPosition,
  toStreamState,
  versionOf,
} from './mapping';

const metadata: EventMetadata = {
  userId: 'user-1',
  correlationId: 'corr-1',
  causationId: 'cause-1',
  recordedAt: '2026-01-15T10:00:00.000Z',
  schemaVersion: 2,
};

/** What the client yields for an event read back from `$all`, given what was appended. */
function recorded(
  data: ReturnType<typeof toEventData>,
  streamId: string,
  revision: bigint,
  position: Position,
): AllStreamRecordedEvent {
  return {
    streamId,
    id: data.id,
    isJson: true,
    revision,
    type: data.type,
    created: new Date('2026-01-15T10:00:01Z'),
    // The server keeps the bytes; the client parses them back (JSON.stringify / JSON.parse).
    data: JSON.parse(JSON.stringify(data.data)),
    metadata: JSON.parse(JSON.stringify(data.metadata)),
    position,
  } as AllStreamRecordedEvent;
}

describe('EventStoreDB positions as Kosh position tokens', () => {
  it('encodes $all commit/prepare positions so that string order is log order', () => {
    const positions: Position[] = [
      { commit: 0n, prepare: 0n },
      { commit: 9n, prepare: 9n },
      { commit: 10n, prepare: 3n },
      { commit: 10n, prepare: 10n },
      { commit: 10n, prepare: 200n },
      { commit: 123_456_789_012n, prepare: 5n },
      { commit: 2n ** 63n - 1n, prepare: 2n ** 63n - 1n },
      { commit: 2n ** 64n - 1n, prepare: 0n },
    ];
    const tokens = positions.map(positionToToken);
    expect(tokens[2]).toBe('00000000000000000010:00000000000000000003');
    expect([...tokens].sort()).toEqual(tokens);
    // As PostgreSQL compares the checkpoints (COLLATE "C" = byte order): same as JS string order.
    expect(tokens.every((t) => t.length === 41 && t > '')).toBe(true);
    expect(tokens.map(tokenToPosition)).toEqual(positions);
  });

  it('starts a read at the beginning for no checkpoint, else at the checkpoint position', () => {
    expect(readAllStart(null)).toBe(START);
    expect(readAllStart(undefined)).toBe(START);
    expect(readAllStart('')).toBe(START);
    expect(readAllStart('00000000000000000042:00000000000000000040')).toEqual({ commit: 42n, prepare: 40n });
  });

  it('rejects tokens and positions it cannot represent', () => {
    expect(() => tokenToPosition('42:40')).toThrow(/Invalid event position token/);
    expect(() => tokenToPosition('00000000000000000042')).toThrow(/Invalid event position token/);
    expect(() => positionToToken({ commit: -1n, prepare: 0n })).toThrow(RangeError);
    expect(() => positionToToken({ commit: 2n ** 64n, prepare: 0n })).toThrow(RangeError);
  });
});

describe('expected versions as stream revisions', () => {
  it('maps no_stream, any and exact versions (event counts) to the revision of the last event', () => {
    expect(toStreamState('no_stream')).toBe(NO_STREAM);
    expect(toStreamState('any')).toBe(ANY);
    expect(toStreamState(0)).toBe(NO_STREAM);
    expect(toStreamState(1)).toBe(0n);
    expect(toStreamState(5)).toBe(4n);
  });

  it('rejects versions that are not non-negative integers', () => {
    expect(() => toStreamState(-1)).toThrow(RangeError);
    expect(() => toStreamState(1.5)).toThrow(RangeError);
    expect(() => toStreamState(Number.NaN)).toThrow(RangeError);
  });

  it('maps the server revision back to a version', () => {
    expect(versionOf(NO_STREAM)).toBe(0);
    expect(versionOf(0n)).toBe(1);
    expect(versionOf(41n)).toBe(42);
    expect(nextVersionOf(4n)).toBe(5);
    expect(nextVersionOf(-1n)).toBe(0);
  });
});

describe('server errors as Kosh errors', () => {
  it('turns WrongExpectedVersionError into ConcurrencyError with the stream version', () => {
    const exact = new WrongExpectedVersionError(undefined, {
      streamName: 'loan-1',
      expected: 0n,
      current: 2n,
    });
    const mapped = toConcurrencyError(exact, 'loan-1', 1);
    expect(mapped).toBeInstanceOf(ConcurrencyError);
    expect(mapped).toMatchObject({
      streamId: 'loan-1',
      expected: 1,
      actual: 3,
      errorCode: 'CONCURRENCY_CONFLICT',
    });
    expect(mapped?.message).toBe('Stream loan-1 is at version 3, expected 1');

    const onMissing = new WrongExpectedVersionError(undefined, {
      streamName: 'loan-2',
      expected: 3n,
      current: NO_STREAM,
    });
    expect(toConcurrencyError(onMissing, 'loan-2', 4)).toMatchObject({ expected: 4, actual: 0 });

    const exists = new WrongExpectedVersionError(undefined, {
      streamName: 'email-x',
      expected: NO_STREAM,
      current: 0n,
    });
    expect(toConcurrencyError(exists, 'email-x', 'no_stream')).toMatchObject({
      expected: 'no_stream',
      actual: 1,
    });
  });

  it('lets every other error through unchanged', () => {
    expect(toConcurrencyError(new UnavailableError(), 'loan-1', 1)).toBeNull();
    expect(toConcurrencyError(new Error('boom'), 'loan-1', 1)).toBeNull();
  });
});

describe('events and metadata', () => {
  const newEvent = (id: string, data: unknown = { amount: 12_500 }): NewEvent => ({
    id,
    type: 'TransactionRecorded',
    data,
    metadata,
  });

  it('stores Kosh metadata with the server correlation/causation keys and reads it back without them', () => {
    const id = randomUUID();
    const data = toEventData(newEvent(id));
    expect(data).toMatchObject({ id, type: 'TransactionRecorded', contentType: 'application/json' });
    expect(data.metadata).toEqual({ ...metadata, $correlationId: 'corr-1', $causationId: 'cause-1' });

    const back = fromServerEvent(recorded(data, 'txn-9', 6n, { commit: 900n, prepare: 880n }));
    expect(back).toEqual({
      id,
      streamId: 'txn-9',
      streamVersion: 7,
      position: '00000000000000000900:00000000000000000880',
      type: 'TransactionRecorded',
      data: { amount: 12_500 },
      metadata,
    });
  });

  it('omits $causationId for a first event and round-trips null data', () => {
    const data = toEventData({
      ...newEvent(randomUUID(), null),
      metadata: { ...metadata, causationId: null },
    });
    expect(data.metadata).not.toHaveProperty('$causationId');
    const back = fromServerEvent(recorded(data, 's', 0n, { commit: 1n, prepare: 1n }));
    expect(back?.data).toBeNull();
    expect(back?.metadata.causationId).toBeNull();
  });

  it('gives non-UUID ids a stable UUID and keeps the original id', () => {
    const seeded = serverEventId('seed-bank-sbi');
    expect(seeded).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(serverEventId('seed-bank-sbi')).toBe(seeded);
    expect(serverEventId('seed-bank-hdfc')).not.toBe(seeded);
    const uuid = randomUUID();
    expect(serverEventId(uuid.toUpperCase())).toBe(uuid);

    const data = toEventData(newEvent('seed-bank-sbi'));
    expect(data.id).toBe(seeded);
    expect(data.metadata).toMatchObject({ [KOSH_EVENT_ID]: 'seed-bank-sbi' });
    const back = fromServerEvent(recorded(data, 'bank-sbi', 0n, { commit: 5n, prepare: 5n }));
    expect(back?.id).toBe('seed-bank-sbi');
    expect(back?.metadata).toEqual(metadata);
  });

  it('skips events Kosh did not write (no JSON metadata) and refuses events without a position', () => {
    const data = toEventData(newEvent(randomUUID()));
    const foreign = { ...recorded(data, 'other', 0n, { commit: 1n, prepare: 1n }), metadata: undefined };
    expect(fromServerEvent(foreign)).toBeNull();
    const binary = {
      ...recorded(data, 'other', 0n, { commit: 1n, prepare: 1n }),
      metadata: new Uint8Array([1]),
    };
    expect(fromServerEvent(binary)).toBeNull();
    const { position: _, ...withoutPosition } = recorded(data, 'x', 0n, { commit: 1n, prepare: 1n });
    expect(() => fromServerEvent(withoutPosition)).toThrow(/without a position/);
  });
});

describe('$all filters', () => {
  it('reads every user event and no system event ($-prefixed types)', () => {
    const filter = readAllFilter();
    expect(filter.filterOn).toBe(EVENT_TYPE);
    const regex = new RegExp((filter as { regex: string }).regex);
    expect(regex.test('LoanCreated')).toBe(true);
    expect(regex.test('$metadata')).toBe(false);
    expect(regex.test('$>')).toBe(false);
  });

  it('wakes subscribers for Kosh event types only, matched exactly', () => {
    const filter = subscriptionFilter(['LoanCreated', 'TransactionRecorded', 'LoanCreated']);
    expect(filter.filterOn).toBe(EVENT_TYPE);
    const regex = new RegExp((filter as { regex: string }).regex);
    expect(regex.test('LoanCreated')).toBe(true);
    expect(regex.test('TransactionRecorded')).toBe(true);
    expect(regex.test('LoanCreatedLater')).toBe(false);
    expect(regex.test('OtherAppEvent')).toBe(false);
    expect(regex.test('$statsCollected')).toBe(false);
    expect(subscriptionFilter()).toEqual(readAllFilter());
  });
});
