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

  it("agrees with the zone's own rules at every quarter hour around India's midnight, 1946 to 2100", () => {
    const intl = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Asia/Kolkata',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    let checked = 0;
    for (let day = Date.UTC(1946, 0, 1); day < Date.UTC(2100, 11, 31); day += 97 * 86_400_000) {
      for (let minutes = 17 * 60; minutes <= 20 * 60; minutes += 15) {
        const instant = new Date(day + minutes * 60_000 - 1);
        expect(calendarDateOf(instant)).toBe(intl.format(instant));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(7_000);
  });

  it('before India kept one offset all year (1945), the zone database answers', () => {
    const instant = new Date('1943-06-01T18:00:00.000Z');
    const intl = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Asia/Kolkata',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    expect(calendarDateOf(instant)).toBe(intl.format(instant));
  });
});
