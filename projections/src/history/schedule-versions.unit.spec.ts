import {
  formatInr,
  type LoanCommand,
  type LoanFields,
  type LoanState,
  type LoanStreamEvent,
  loanDecider,
  toPaise,
} from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { diffSchedules, versionsOfEvents } from './schedule-versions';

const loanId = '0b7d8f4e-0000-4000-8000-00000000000a';
const userId = '6f1c2d7e-0000-4000-8000-000000000001';
const now = '2026-01-10T10:00:00.000Z';

/** ₹50 lakh at 8.5% for 20 years from 2020-05-05, GST 18% on interest. */
const fields: LoanFields = {
  bankId: 1,
  loanTypeId: 1,
  accountNumber: 'HL20200505',
  shortDetail: null,
  principalAmount: 500000000,
  interestRate: 8.5,
  isInterestRateYearly: true,
  duration: 20,
  isDurationYearly: true,
  startDate: '2020-05-05',
  processingFee: 0,
  hasGst: true,
  gstPercentage: 18,
  emisAutoDebited: true,
  processingFeeGst: true,
};

type Change = { type: LoanCommand['type']; data: Record<string, unknown> };

/** The loan's events after creating it and running `commands` through the decider. */
function eventsAfter(...commands: Change[]): LoanStreamEvent[] {
  let state: LoanState = loanDecider.initialState();
  const events: LoanStreamEvent[] = [];
  const run = (command: LoanCommand) => {
    for (const event of loanDecider.decide(command, state)) {
      events.push(event);
      state = loanDecider.evolve(state, event);
    }
  };
  run({ type: 'CreateLoan', data: { loanId, userId, fields, now } });
  for (const { type, data } of commands) run({ type, data: { loanId, userId, now, ...data } } as LoanCommand);
  return events;
}

const versions = (events: LoanStreamEvent[]) =>
  versionsOfEvents(
    events
      .filter((e) => e.type === 'ScheduleGenerated' || e.type === 'ScheduleRevised')
      .map((e) => ({ type: e.type, data: e.data as never })),
    null,
  );

const rateReset: Change = {
  type: 'ChangeLoanRate',
  data: { date: '2024-05-05', annualRatePercent: 9.25, option: 'increase-emi', newEmi: null },
};

describe('schedule versions: the real EMIs and why each was made', () => {
  it('a rate reset raises the EMI in force, and the diff says by how much (not "No change")', () => {
    const found = versions(eventsAfter(rateReset));
    const [first, second] = [found.get(1), found.get(2)];
    if (!first || !second) throw new Error('two versions expected');
    expect(first.why).toBe('Loan created');
    expect(second.why).toBe('Rate reset to 9.25% from 05 May 2024, EMI increased');
    // The first EMI (June 2020) is the same in both: the EMI after the reset is not.
    expect(second.rows[0]?.emi).toBe(first.rows[0]?.emi);
    expect(second.emi).toBeGreaterThan(first.emi);
    const emiAfterReset = second.rows.find((r) => r.kind === 'emi' && r.emiDate > '2024-05-05');
    expect(second.emi).toBe((emiAfterReset?.principal ?? 0) + (emiAfterReset?.interest ?? 0));
    const diff = diffSchedules(first, second);
    expect(diff.emi.difference).toBe(second.emi - first.emi);
    expect(diff.emi.difference).toBeGreaterThan(0);
  });

  it('a part-payment names its amount and choice; the EMI stays when the tenure is reduced', () => {
    const found = versions(
      eventsAfter(rateReset, {
        type: 'RecordPrepayment',
        data: { date: '2025-06-20', amount: toPaise(500000), charge: 0, choice: 'reduce-tenure' },
      }),
    );
    const third = found.get(3);
    expect(third?.why).toBe('Part-payment of ₹5,00,000.00, tenure reduced');
    expect(third?.emi).toBe(found.get(2)?.emi);
    expect(third?.totals.numberOfPayments).toBeLessThan(found.get(2)?.totals.numberOfPayments ?? 0);
  });

  it('an EMI override, a foreclosure and a regeneration speak words too', () => {
    const found = versions(
      eventsAfter(
        { type: 'OverrideEmi', data: { date: '2024-06-05', emi: toPaise(41000) } },
        { type: 'RegenerateSchedule', data: {} },
        { type: 'ForecloseLoan', data: { date: '2025-12-20', charge: toPaise(2000) } },
      ),
    );
    expect(found.get(2)?.why).toBe('EMI set to ₹41,000.00 from 05 Jun 2024');
    expect(found.get(2)?.emi).toBe(toPaise(41000));
    expect(found.get(3)?.why).toBe('Schedule regenerated');
    const closing = found.get(4)?.rows.at(-1);
    expect(closing?.kind).toBe('foreclosure');
    expect(found.get(4)?.why).toMatch(/^Foreclosed on 20 Dec 2025 \(settlement ₹[\d,]+\.\d\d\)$/);
    expect(found.get(4)?.why).toContain(formatInr(closing?.emi ?? 0));
    // Nothing is due after a foreclosure.
    expect(found.get(4)?.emi).toBe(0);
  });
});
