import type { ExportEventLine } from '@kosh/domain';
import type { ExportedEvent } from '@kosh/projections';
import { describe, expect, it } from 'vitest';
import { eventLine } from './export';

const PREV = 'ab'.repeat(32);

const stored = (chain: ExportedEvent['chain']): ExportedEvent => ({
  position: '00000000000000000042:00000000000000000007',
  eventId: '3f0c2b1e-8a4d-4c5e-9f61-2b7d8e9a0c11',
  streamId: 'transaction:9b1d',
  streamVersion: 3,
  type: 'TransactionUpdated',
  recordedAt: '2026-03-10T09:30:00.000Z',
  // PostgreSQL's jsonb text: its own spacing, a quote and a backslash escaped, a non-ASCII rupee sign.
  dataJson: '{"notes": "Rent \\"March\\" \\\\ ₹", "amount": 1250050}',
  metadataJson: '{"userId": "u-1", "recordedAt": "2026-03-10T09:30:00.000Z", "correlationId": "req-7"}',
  chain,
});

/** What the line must say: the documented shape, in its key order. */
const expected = (e: ExportedEvent, n: number): ExportEventLine => ({
  n,
  prev: PREV,
  kind: 'event',
  event: {
    position: e.position,
    event_id: e.eventId,
    stream_id: e.streamId,
    stream_version: e.streamVersion,
    type: e.type,
    recorded_at: e.recordedAt,
    data: JSON.parse(e.dataJson),
    metadata: JSON.parse(e.metadataJson),
  },
  ...(e.chain ? { chain: e.chain } : {}),
});

describe('eventLine', () => {
  it.each([
    ['with its chain link', { seq: 12, hash: 'cd'.repeat(32) }],
    ['without a chain link (EventStoreDB)', null],
  ])('writes the ExportEventLine shape %s, keys in order, data and metadata as stored', (_, chain) => {
    const e = stored(chain);
    const line = eventLine(5, PREV, e);
    expect(line).not.toContain('\n');
    const parsed = JSON.parse(line);
    expect(parsed).toEqual(expected(e, 5));
    // Same keys in the same order as JSON.stringify of the documented object.
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(expected(e, 5)));
    expect(line).toContain(`"data":${e.dataJson}`);
  });
});
