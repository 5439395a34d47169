import * as domain from '@kosh/domain';
import { eventOwner, isPersonalStream, type RecordedEvent } from '@kosh/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HISTORY_EVENT_TYPES, historyRecordOf, ownerOf } from './projector';

/**
 * The event store chains every event of a personal stream (domain `eventOwner`, event-store
 * migration 009) and the signed export must hold every chained event, or it fails verification
 * ("an event of the store is missing"). So every event type the domain declares must be in
 * History, and every stream the domain names must be classified. A new stream or event list added
 * without either fails here.
 */

/** Events on streams that are nobody's: never chained, never in History. */
const NOBODYS_EVENTS = new Set(['EmailReserved', 'EmailReleased', 'AccountErased']);
/** Stream-id helpers of streams that are nobody's (every other stream is personal). */
const NOBODYS_STREAM_HELPERS = new Set(['emailStreamId']);

const exported = Object.entries(domain as Record<string, unknown>);

describe('one owner rule for the chain and History', () => {
  it('finds the domain’s event type lists and stream-id helpers (so the checks below see new ones)', () => {
    const lists = exported.filter(([name]) => /(EVENT_TYPES|EventTypes)$/.test(name)).map(([name]) => name);
    expect(lists).toEqual(
      expect.arrayContaining([
        'USER_EVENT_TYPES',
        'ACCOUNT_EVENT_TYPES',
        'TRANSFER_EVENT_TYPES',
        'IMPORT_EVENT_TYPES',
        'ERASURE_EVENT_TYPES',
      ]),
    );
    const helpers = exported.filter(([name, v]) => /StreamId$/.test(name) && typeof v === 'function');
    expect(helpers.map(([name]) => name)).toEqual(
      expect.arrayContaining(['accountStreamId', 'transferStreamId', 'importStreamId', 'emailStreamId']),
    );
  });

  it('shows in History every event type the domain declares, but those of nobody’s streams', () => {
    const history = new Set(HISTORY_EVENT_TYPES);
    const missing: string[] = [];
    for (const [name, value] of exported) {
      if (!/(EVENT_TYPES|EventTypes)$/.test(name) || !Array.isArray(value)) continue;
      for (const type of value as string[]) {
        if (!history.has(type) && !NOBODYS_EVENTS.has(type)) missing.push(`${name}: ${type}`);
      }
    }
    expect(
      missing,
      'chained by the store but not exported by History: add them to HISTORY_EVENT_TYPES',
    ).toEqual([]);
  });

  it('classifies every stream the domain names: personal (chained, in History) or nobody’s', () => {
    for (const [name, helper] of exported) {
      if (!/StreamId$/.test(name) || typeof helper !== 'function') continue;
      const streamId = (helper as (id: never, hash: (t: string) => string) => string)(
        '7' as never,
        () => 'a1b2',
      );
      expect(isPersonalStream(streamId), `${name} → ${streamId}`).toBe(!NOBODYS_STREAM_HELPERS.has(name));
    }
    expect(isPersonalStream(domain.ERASED_ACCOUNTS_STREAM)).toBe(false);
  });

  it('History keeps an event exactly when the chain owns it, for any stream and event type', () => {
    const streams = fc.oneof(
      fc
        .constantFrom(
          'account',
          'transfer',
          'import',
          'user',
          'loan',
          'txn',
          'categories',
          'rule',
          'budget',
          'email',
        )
        .chain((prefix) => fc.uuid().map((id) => `${prefix}-${id}`)),
      fc.constantFrom('erased-accounts', 'bank-1'),
    );
    const user = fc.option(fc.uuid(), { nil: null });
    fc.assert(
      fc.property(
        streams,
        fc.constantFrom(...HISTORY_EVENT_TYPES),
        user,
        user,
        (streamId, type, actor, named) => {
          const event: RecordedEvent = {
            id: 'e-1',
            streamId,
            streamVersion: 1,
            position: '00000000000000000001:00000000000000000001',
            type,
            data: named === null ? { amount: 1 } : { userId: named, amount: 1 },
            metadata: {
              userId: actor,
              correlationId: 'c',
              causationId: null,
              recordedAt: '2026-01-01T00:00:00.000Z',
              schemaVersion: 1,
            },
          } as RecordedEvent;
          const owner = eventOwner(streamId, event.data, event.metadata);
          expect(ownerOf(event)).toBe(owner);
          expect(historyRecordOf(event)?.userId ?? null).toBe(owner);
        },
      ),
      { numRuns: 300 },
    );
  });
});
