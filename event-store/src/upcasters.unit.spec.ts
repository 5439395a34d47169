import type { RecordedEvent } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { START_POSITION } from './port';
import { comparePositions, decodePosition, encodePosition } from './position';
import { createUpcasterRegistry } from './upcasters';

const recorded = (type: string, schemaVersion: number, data: unknown): RecordedEvent => ({
  id: 'e-1',
  streamId: 'loan-1',
  streamVersion: 1,
  position: encodePosition(1, 1),
  type,
  data,
  metadata: {
    userId: 'u',
    correlationId: 'c',
    causationId: null,
    recordedAt: '2026-01-01T00:00:00.000Z',
    schemaVersion,
  },
});

describe('upcaster registry', () => {
  const registry = createUpcasterRegistry([
    {
      type: 'LoanCreated',
      schemaVersion: 1,
      upcast: (e) => ({
        ...e,
        data: { ...(e.data as object), gstApplicable: false },
        metadata: { ...e.metadata, schemaVersion: 2 },
      }),
    },
    {
      type: 'LoanCreated',
      schemaVersion: 2,
      upcast: (e) => ({ ...e, type: 'LoanOpened', metadata: { ...e.metadata, schemaVersion: 3 } }),
    },
  ]);

  it('chains upcasters from the stored schema version to the newest', () => {
    const out = registry.upcast(recorded('LoanCreated', 1, { amount: 100 }));
    expect(out.type).toBe('LoanOpened');
    expect(out.data).toEqual({ amount: 100, gstApplicable: false });
    expect(out.metadata.schemaVersion).toBe(3);
  });

  it('leaves events without a matching (type, schemaVersion) unchanged', () => {
    const current = recorded('LoanCreated', 3, { amount: 1 });
    expect(registry.upcast(current)).toBe(current);
    const other = recorded('LoanClosed', 1, {});
    expect(registry.upcast(other)).toBe(other);
  });

  it('rejects two upcasters for one key and an upcaster that does not raise the version', () => {
    const same = { type: 'A', schemaVersion: 1, upcast: (e: RecordedEvent) => e };
    expect(() => createUpcasterRegistry([same, same])).toThrow(/Two upcasters/);
    expect(() => createUpcasterRegistry([same]).upcast(recorded('A', 1, {}))).toThrow(/must raise/);
  });
});

describe('position tokens', () => {
  it('sort as strings in (transaction id, global position) order', () => {
    const tokens = [
      encodePosition(900, 5),
      encodePosition(12, 7),
      encodePosition(12, 30),
      encodePosition(1000, 1),
    ];
    expect([...tokens].sort(comparePositions)).toEqual([tokens[1], tokens[2], tokens[0], tokens[3]]);
    expect(START_POSITION < tokens[1]!).toBe(true);
  });

  it('round-trip, with the start position as zero', () => {
    expect(decodePosition(encodePosition('18446744073709551615', 42))).toEqual({
      transactionId: 18446744073709551615n,
      globalPosition: 42n,
    });
    expect(decodePosition(START_POSITION)).toEqual({ transactionId: 0n, globalPosition: 0n });
    expect(decodePosition(null)).toEqual({ transactionId: 0n, globalPosition: 0n });
    expect(() => decodePosition('12:34')).toThrow(/Invalid event position/);
  });
});
