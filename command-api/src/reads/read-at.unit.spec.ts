import { ValidationError } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { AS_OF_MESSAGES, parseAsOf } from './read-at';

/** 2026-03-10 15:00 in India. */
const NOW = new Date('2026-03-10T09:30:00.000Z');

const errorOf = (text: string) => {
  try {
    parseAsOf(text, NOW);
  } catch (error) {
    return error instanceof ValidationError ? error.errors : error;
  }
  return null;
};

describe('parseAsOf', () => {
  it('is absent for no or blank text', () => {
    expect(parseAsOf(undefined, NOW)).toBeNull();
    expect(parseAsOf('  ', NOW)).toBeNull();
  });

  it('takes a date as the end of that day in India, and today as now', () => {
    expect(parseAsOf('2025-03-31', NOW)?.toISOString()).toBe('2025-03-31T18:29:59.999Z');
    expect(parseAsOf('2026-03-10', NOW)?.toISOString()).toBe(NOW.toISOString());
  });

  it('reads a date-time without a zone as India time, and honours a given zone', () => {
    expect(parseAsOf('2026-03-01T10:00', NOW)?.toISOString()).toBe('2026-03-01T04:30:00.000Z');
    expect(parseAsOf('2026-03-01T10:00:05.250Z', NOW)?.toISOString()).toBe('2026-03-01T10:00:05.250Z');
    expect(parseAsOf('2026-03-01T10:00:00+01:00', NOW)?.toISOString()).toBe('2026-03-01T09:00:00.000Z');
  });

  it('refuses the future and what is not a real date or time, on the as_of field', () => {
    expect(errorOf('2026-03-11')).toEqual([{ field: 'as_of', message: AS_OF_MESSAGES.future }]);
    expect(errorOf('2026-03-10T15:01')).toEqual([{ field: 'as_of', message: AS_OF_MESSAGES.future }]);
    for (const bad of [
      '2026-02-30',
      '2026-13-01',
      '2026-03-01T24:00',
      'yesterday',
      '1741600000',
      '2026-3-1',
    ]) {
      expect(errorOf(bad), bad).toEqual([{ field: 'as_of', message: AS_OF_MESSAGES.format }]);
    }
  });
});
