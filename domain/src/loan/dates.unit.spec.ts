import { describe, expect, it } from 'vitest';
import { calendarDateOf } from './dates';

describe('calendarDateOf', () => {
  it("is India's date: 18:29 UTC is still the day, 18:30 UTC is the next (IST is UTC+5:30)", () => {
    expect(calendarDateOf(new Date('2026-03-31T18:29:59.999Z'))).toBe('2026-03-31');
    expect(calendarDateOf(new Date('2026-03-31T18:30:00.000Z'))).toBe('2026-04-01');
  });

  it('keeps one formatter per zone: asking for another zone in between changes nothing', () => {
    const instant = new Date('2026-01-01T02:00:00.000Z');
    expect(calendarDateOf(instant)).toBe('2026-01-01');
    expect(calendarDateOf(instant, 'America/New_York')).toBe('2025-12-31');
    expect(calendarDateOf(instant)).toBe('2026-01-01');
    expect(calendarDateOf(instant, 'UTC')).toBe('2026-01-01');
  });
});
