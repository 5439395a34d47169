import { generateSchedule, type LoanCreated, type ScheduleGenerated } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { evolveSchedule } from '../schedules/projector';
import { evolveLoanRow, foldLoanBatch, type VersionedLoanEvent } from './projector';

const loanId = '0b7d8f4e-0000-4000-8000-00000000000a';
const userId = '6f1c2d7e-0000-4000-8000-000000000001';
const at = '2026-01-10T10:00:00.000Z';
const later = '2026-01-11T10:00:00.000Z';

const terms = {
  principalAmount: 100000000,
  interestRate: 10.5,
  isInterestRateYearly: true,
  duration: 10,
  isDurationYearly: true,
  startDate: '2025-01-15',
  hasGst: false,
  gstPercentage: 0,
};
const created: LoanCreated & { streamVersion: number } = {
  type: 'LoanCreated',
  data: {
    ...terms,
    loanId,
    userId,
    bankId: 1,
    loanTypeId: 1,
    accountNumber: 'HL00012345',
    shortDetail: null,
    endDate: '2035-01-15',
    processingFee: 0,
    emisAutoDebited: true,
    processingFeeGst: true,
    createdAt: at,
  },
  streamVersion: 1,
};
const schedule = (version: number, streamVersion: number, principalAmount = terms.principalAmount) => {
  const t = { ...terms, principalAmount };
  const { rows, totals } = generateSchedule(t);
  const event: ScheduleGenerated = {
    type: 'ScheduleGenerated',
    data: { loanId, userId, version, reason: 'created', terms: t, rows, totals, generatedAt: at },
  };
  return { ...event, streamVersion };
};
const updated: VersionedLoanEvent = {
  type: 'LoanUpdated',
  data: {
    loanId,
    userId,
    changes: { principalAmount: 90000000 },
    previous: { principalAmount: 100000000 },
    updatedAt: later,
  },
  streamVersion: 3,
};

describe('loan list row', () => {
  it('folds create, schedule and update into one row carrying the stream version', () => {
    const row = [created, schedule(1, 2), updated].reduce(evolveLoanRow, null);
    expect(row).toMatchObject({
      id: loanId,
      userId,
      principalAmount: 90000000,
      scheduleVersion: 1,
      version: 3,
      createdAt: at,
      updatedAt: later,
    });
  });

  it('ignores an event delivered twice', () => {
    const once = [created, schedule(1, 2), updated].reduce(evolveLoanRow, null);
    expect(evolveLoanRow(once, updated)).toBe(once);
    expect(evolveLoanRow(once, created)).toBe(once);
  });

  it('removes the row on delete', () => {
    const deleted: VersionedLoanEvent = {
      type: 'LoanDeleted',
      data: { loanId, userId, deletedAt: later },
      streamVersion: 4,
    };
    expect([created, schedule(1, 2), updated, deleted].reduce(evolveLoanRow, null)).toBeNull();
  });

  it('reports only rows whose fold changed in a batch', () => {
    const row = [created, schedule(1, 2)].reduce(evolveLoanRow, null)!;
    expect(foldLoanBatch(new Map([[loanId, row]]), [created, schedule(1, 2)]).size).toBe(0);
    expect(foldLoanBatch(new Map([[loanId, row]]), [updated]).get(loanId)).toMatchObject({ version: 3 });
  });
});

describe('schedule read model', () => {
  it('keeps the newest version and ignores a redelivered or older one', () => {
    const v1 = evolveSchedule(null, schedule(1, 2));
    const v2 = evolveSchedule(v1, schedule(2, 4, 90000000));
    expect(v2).toMatchObject({ version: 2, totals: { principal: 90000000 } });
    expect(evolveSchedule(v2, schedule(2, 4, 90000000))).toBe(v2);
    expect(evolveSchedule(v2, schedule(1, 2))).toBe(v2);
    expect(evolveSchedule(v2, updated)).toBe(v2);
  });

  it('drops the schedule with the loan', () => {
    const v1 = evolveSchedule(null, schedule(1, 2));
    expect(
      evolveSchedule(v1, { type: 'LoanDeleted', data: { loanId, userId, deletedAt: later } }),
    ).toBeNull();
  });
});
