import { describe, expect, it } from 'vitest';
import { notificationDecider, parseNotificationPreferences } from '../notification/decide';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { DeciderSpecification } from '../testing/decider-specification';
import { cashFlowForecast, cashFlowWindow } from './cash-flow';
import { recurringDecider } from './decide';
import type { RecurringEvent } from './events';
import type { RecurringDetails } from './fields';
import { occurrencesBetween } from './schedule';

const given = DeciderSpecification.for(recurringDecider);
const recurringId = '3f1c2b8e-1d2a-4c1b-9a51-7a0c6d1e2f30';
const userId = 'b7e1a4c2-5f6d-4e3a-8b9c-0d1e2f3a4b5c';
const now = '2026-03-20T04:00:00.000Z';
const ids = { recurringId, userId, now };

const rent: RecurringDetails = {
  transactionType: 'D',
  amount: 2_500_000,
  notes: 'Rent',
  payee: 'Landlord',
  categoryId: null,
  accountId: null,
  frequency: 'monthly',
  dayOfMonth: 20,
  startDate: '2026-01-01',
  endDate: null,
};
const created: RecurringEvent = {
  type: 'RecurringEntryCreated',
  data: { recurringId, userId, ...rent, createdAt: now },
};

describe('the schedule', () => {
  it('takes the last day of a shorter month, and the last day when asked', () => {
    const monthly31 = { ...rent, dayOfMonth: 31, startDate: '2026-01-15' };
    expect(occurrencesBetween(monthly31, '2026-01-01', '2026-04-30')).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
    ]);
    const last = { ...rent, dayOfMonth: null, startDate: '2024-01-01' };
    expect(occurrencesBetween(last, '2024-02-01', '2024-02-29')).toEqual(['2024-02-29']);
  });
  it('counts quarters and years from the start month, and stops at the end date', () => {
    const quarterly = { ...rent, frequency: 'quarterly' as const, dayOfMonth: 5, startDate: '2026-02-10' };
    expect(occurrencesBetween(quarterly, '2026-01-01', '2026-12-31')).toEqual([
      '2026-05-05',
      '2026-08-05',
      '2026-11-05',
    ]);
    const yearly = { ...rent, frequency: 'yearly' as const, startDate: '2026-03-20', endDate: '2028-03-19' };
    expect(occurrencesBetween(yearly, '2026-01-01', '2030-12-31')).toEqual(['2026-03-20', '2027-03-20']);
  });
});

describe('recurring entry decider', () => {
  it('creates an entry; a second create of the same id is a conflict', () => {
    given([])
      .when({ type: 'CreateRecurring', data: { ...rent, ...ids } })
      .then([created]);
    given([created])
      .when({ type: 'CreateRecurring', data: { ...rent, ...ids } })
      .thenThrows(ConflictError);
  });
  it('refuses an end before the start', () => {
    given([])
      .when({ type: 'CreateRecurring', data: { ...rent, endDate: '2025-12-31', ...ids } })
      .thenThrows(ValidationError, (e) => expect(e.errors.map((x) => x.field)).toEqual(['end_date']));
  });
  it("answers another user's entry as not found", () => {
    given([created])
      .when({
        type: 'SkipOccurrence',
        data: { ...ids, userId: 'someone-else', occurrenceDate: '2026-04-20' },
      })
      .thenThrows(NotFoundError);
  });
  it('records only what an edit changes, and nothing for the same values', () => {
    given([created])
      .when({ type: 'UpdateRecurring', data: { ...rent, amount: 2_600_000, ...ids } })
      .then([
        {
          type: 'RecurringEntryUpdated',
          data: { recurringId, userId, changes: { amount: 2_600_000 }, previous: rent, updatedAt: now },
        },
      ]);
    given([created])
      .when({ type: 'UpdateRecurring', data: { ...rent, ...ids } })
      .then([]);
  });
  it('skips and changes an occurrence of the schedule only, once', () => {
    given([created])
      .when({ type: 'SkipOccurrence', data: { ...ids, occurrenceDate: '2026-04-21' } })
      .thenThrows(ValidationError);
    const skipped: RecurringEvent = {
      type: 'RecurringOccurrenceSkipped',
      data: { recurringId, userId, occurrenceDate: '2026-04-20', recordedAt: now },
    };
    given([created])
      .when({ type: 'SkipOccurrence', data: { ...ids, occurrenceDate: '2026-04-20' } })
      .then([skipped]);
    given([created, skipped])
      .when({ type: 'SkipOccurrence', data: { ...ids, occurrenceDate: '2026-04-20' } })
      .then([]);
    given([created])
      .when({
        type: 'ChangeOccurrence',
        data: { ...ids, occurrenceDate: '2026-05-20', amount: '0', notes: '' },
      })
      .thenThrows(ValidationError, (e) => expect(e.errors.map((x) => x.field)).toEqual(['amount', 'notes']));
  });
});

describe('the cash-flow forecast', () => {
  it('covers three calendar months from the day, without skipped or posted occurrences, with unpaid EMIs', () => {
    expect(cashFlowWindow('2026-03-20')).toEqual({ from: '2026-03-20', to: '2026-05-31' });
    const entry = { ...rent, id: recurringId, exceptions: { '2026-04-20': { kind: 'skipped' as const } } };
    const salary = {
      ...rent,
      id: 'salary',
      transactionType: 'C' as const,
      amount: 9_000_000,
      notes: 'Salary',
      payee: null,
      dayOfMonth: null,
      exceptions: { '2026-05-31': { kind: 'changed' as const, amount: 9_500_000, notes: 'Salary + bonus' } },
    };
    const forecast = cashFlowForecast('2026-03-20', [entry, salary], new Set([`${recurringId}:2026-03-20`]), [
      { loanId: 'loan', emiNumber: 13, loanLabel: 'HDFC · HL1', dueDate: '2026-04-15', amount: 2_000_000 },
    ]);
    expect(forecast.items.map((i) => [i.date, i.description, i.inflow, i.outflow])).toEqual([
      ['2026-03-31', 'Salary', 9_000_000, 0],
      ['2026-04-15', 'EMI 13 of HDFC · HL1', 0, 2_000_000],
      ['2026-04-30', 'Salary', 9_000_000, 0],
      ['2026-05-20', 'Rent (Landlord)', 0, 2_500_000],
      ['2026-05-31', 'Salary + bonus', 9_500_000, 0],
    ]);
    expect(forecast.months.map((m) => [m.month, m.net, m.cumulativeNet])).toEqual([
      ['2026-03', 9_000_000, 9_000_000],
      ['2026-04', 7_000_000, 16_000_000],
      ['2026-05', 7_000_000, 23_000_000],
    ]);
  });
});

describe('notification preferences', () => {
  const prefs = DeciderSpecification.for(notificationDecider);
  it('spends an unsubscribe token once', () => {
    const used = {
      type: 'ReminderUnsubscribed' as const,
      data: { userId, kind: 'emi-due' as const, tokenId: 't1', unsubscribedAt: now },
    };
    prefs([])
      .when({ type: 'UnsubscribeReminder', data: { userId, now, kind: 'emi-due', tokenId: 't1' } })
      .then([used]);
    prefs([used])
      .when({ type: 'UnsubscribeReminder', data: { userId, now, kind: 'emi-due', tokenId: 't1' } })
      .thenThrows(ConflictError);
  });
  it('reads the body: flags must be booleans, days a whole number (default 3)', () => {
    expect(parseNotificationPreferences({ emi_due: true, recurring_due: false })).toEqual({
      ok: true,
      value: { emiDue: true, recurringDue: false, budgetCrossed: false, daysBefore: 3 },
    });
    const bad = parseNotificationPreferences({ emi_due: 1, recurring_due: false, days_before: true });
    expect(bad.ok ? [] : bad.errors.map((e) => e.field)).toEqual(['emi_due', 'days_before']);
  });
  it('refuses days before outside 0 to 30', () => {
    prefs([])
      .when({
        type: 'SetNotificationPreferences',
        data: { userId, now, emiDue: true, recurringDue: false, budgetCrossed: false, daysBefore: 31 },
      })
      .thenThrows(ValidationError);
  });
});
