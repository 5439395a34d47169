import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { DeciderSpecification } from '../testing/decider-specification';
import { loanFields } from '../testing/fixtures';
import type { LoanCommand } from './decide';
import { loanDecider } from './decide';
import type { LoanStreamEvent } from './events';
import { emiStandings, legacyMarkId, upcastLoanEvent } from './payments';
import { generateSchedule } from './schedule';
import { evolveLoan, initialLoanState, scheduleTermsOf } from './state';

const given = DeciderSpecification.for(loanDecider);
const loanId = '0b7d8f4e-0000-4000-8000-00000000000b';
const userId = '6f1c2d7e-0000-4000-8000-000000000001';
const createdAt = '2024-01-31T10:00:00.000Z';
/** 2024-06-10 in India: EMIs 1 to 4 (Feb 29 … May 31) are due, EMI 5 (Jun 30) not yet. */
const now = '2024-06-10T06:00:00.000Z';
const fields = loanFields({
  principalAmount: 100000000,
  interestRate: 10.5,
  duration: 10,
  startDate: '2024-01-31',
});
const details = { ...fields, endDate: '2034-01-31' };
const terms = scheduleTermsOf(details);
const contract = generateSchedule(terms);
const emiAmount = contract.rows[0]!.emi;

const history: LoanStreamEvent[] = [
  { type: 'LoanCreated', data: { loanId, userId, ...details, createdAt } },
  {
    type: 'ScheduleGenerated',
    data: { loanId, userId, version: 1, reason: 'created', terms, ...contract, generatedAt: createdAt },
  },
];
const ids = { loanId, userId, now };
const after = (events: LoanStreamEvent[], command: LoanCommand) => [
  ...events,
  ...loanDecider.decide(command, events.reduce(evolveLoan, initialLoanState())),
];

describe('marking EMIs paid', () => {
  it('marks every EMI due up to a date paid on its own due date, in one event', () => {
    given(history)
      .when({ type: 'MarkEmisPaidUpTo', data: { ...ids, markId: 'up', upTo: '2024-05-31' } })
      .then([
        {
          type: 'EmisMarkedPaidUpTo',
          data: {
            loanId,
            userId,
            recordedAt: now,
            markId: 'up',
            upTo: '2024-05-31',
            paymentNumbers: [1, 2, 3, 4],
          },
        },
      ]);
  });

  it('skips EMIs already marked, and says so when nothing is left', () => {
    const paidTwo = after(history, {
      type: 'MarkEmiPaid',
      data: { ...ids, markId: 'p2', paymentNumber: 2, paidOn: '2024-04-02', amount: emiAmount },
    });
    const [event] = loanDecider.decide(
      { type: 'MarkEmisPaidUpTo', data: { ...ids, markId: 'up', upTo: '2024-05-31' } },
      paidTwo.reduce(evolveLoan, initialLoanState()),
    );
    expect(event?.type === 'EmisMarkedPaidUpTo' && event.data.paymentNumbers).toEqual([1, 3, 4]);
    const all = after(paidTwo, {
      type: 'MarkEmisPaidUpTo',
      data: { ...ids, markId: 'up', upTo: '2024-05-31' },
    });
    given(all)
      .when({ type: 'MarkEmisPaidUpTo', data: { ...ids, markId: 'again', upTo: '2024-05-31' } })
      .thenThrows(ValidationError, (error) =>
        expect(error.errors).toEqual([
          { field: 'upTo', message: 'Every EMI due on or before 2024-05-31 is already marked' },
        ]),
      );
  });

  it('refuses a date in the future and a paid EMI paid again', () => {
    given(history)
      .when({ type: 'MarkEmisPaidUpTo', data: { ...ids, markId: 'up', upTo: '2024-07-31' } })
      .thenThrows(ValidationError, (error) => expect(error.errors[0]?.field).toBe('upTo'));
    const paid = after(history, {
      type: 'MarkEmiPaid',
      data: { ...ids, markId: 'p1', paymentNumber: 1, paidOn: '2024-02-29', amount: emiAmount },
    });
    given(paid)
      .when({
        type: 'MarkEmiPaid',
        data: { ...ids, markId: 'p1b', paymentNumber: 1, paidOn: '2024-03-01', amount: 100 },
      })
      .thenThrows(ConflictError, (error) => expect(error.message).toBe('EMI 1 is already paid in full'));
  });
});

describe('matching a debit', () => {
  const transactionId = '9a1b2c3d-0000-4000-8000-000000000099';
  const match = (amount: number, confirm: boolean): LoanCommand => ({
    type: 'MatchEmi',
    data: { ...ids, markId: 'm', paymentNumber: 3, transactionId, paidOn: '2024-04-30', amount, confirm },
  });

  it('asks to confirm a debit of another amount, naming both', () => {
    given(history)
      .when(match(231075, false))
      .thenThrows(ValidationError, (error) =>
        expect(error.errors).toEqual([
          {
            field: 'confirm',
            message: `The debit of ₹2,310.75 differs from EMI 3's amount of ₹${(emiAmount / 100).toLocaleString('en-IN', { minimumFractionDigits: 2 })}; confirm to match it anyway`,
          },
        ]),
      );
  });

  it('records what was paid: a short debit leaves the remainder overdue', () => {
    const events = after(history, match(231075, true));
    const loan = events.reduce(evolveLoan, initialLoanState());
    if (loan.status !== 'active') throw new Error('loan');
    const rows = generateSchedule(terms).rows.map((r) => ({
      kind: 'emi' as const,
      paymentNumber: r.paymentNumber,
      date: r.emiDate,
      amount: r.emi,
    }));
    const third = emiStandings(rows, loan.payments.marks, true, '2024-06-10')[2]!;
    expect(third).toMatchObject({
      state: 'partly-paid',
      paid: 231075,
      remainder: emiAmount - 231075,
      overdue: true,
    });
  });

  it('is undone by a release; a deleted debit releases every match to it', () => {
    const matched = after(history, match(emiAmount, false));
    given(matched)
      .when({ type: 'UndoEmiMark', data: { ...ids, markId: 'm' } })
      .then([
        {
          type: 'EmiMatchReleased',
          data: { loanId, userId, recordedAt: now, markId: 'm', transactionId, reason: 'undone' },
        },
      ]);
    given(matched)
      .when({ type: 'ReleaseDeletedDebit', data: { ...ids, transactionId } })
      .then([
        {
          type: 'EmiMatchReleased',
          data: {
            loanId,
            userId,
            recordedAt: now,
            markId: 'm',
            transactionId,
            reason: 'transaction-deleted',
          },
        },
      ]);
    given(matched)
      .when({ type: 'UndoEmiMark', data: { ...ids, markId: 'nope' } })
      .thenThrows(NotFoundError);
  });
});

describe('missed EMIs', () => {
  it('marks a due EMI bounced, refuses one not due yet', () => {
    given(history)
      .when({ type: 'MarkEmiMissed', data: { ...ids, markId: 'x', paymentNumber: 4 } })
      .then([
        { type: 'EmiMarkedMissed', data: { loanId, userId, recordedAt: now, markId: 'x', paymentNumber: 4 } },
      ]);
    given(history)
      .when({ type: 'MarkEmiMissed', data: { ...ids, markId: 'x', paymentNumber: 5 } })
      .thenThrows(ValidationError, (error) =>
        expect(error.errors[0]?.message).toBe(
          'EMI 5 falls due on 2024-06-30; it cannot have bounced before then',
        ),
      );
  });
});

describe('foreclosure after EMIs paid in advance', () => {
  it('credits them in the settlement', () => {
    // EMI 5 (due 2024-06-30) paid on 2024-06-05; the loan is closed on 2024-06-10.
    const advance = after(history, {
      type: 'MarkEmiPaid',
      data: { ...ids, markId: 'a5', paymentNumber: 5, paidOn: '2024-06-05', amount: emiAmount },
    });
    const [closed] = loanDecider.decide(
      { type: 'ForecloseLoan', data: { ...ids, date: '2024-06-10', charge: 0 } },
      advance.reduce(evolveLoan, initialLoanState()),
    );
    if (closed?.type !== 'LoanForeclosed') throw new Error('foreclosure');
    const s = closed.data.settlement;
    expect(s.advanceEmis).toEqual([5]);
    expect(s.advanceCredit).toBe(emiAmount);
    expect(s.amount).toBe(s.principal + s.interest + s.gst + s.charge - emiAmount);
  });
});

describe('stored events of an older shape', () => {
  it('read a loan without auto-debit and fee GST as both on, and give a paid mark a stable id', () => {
    const { emisAutoDebited: _a, processingFeeGst: _g, ...old } = details;
    const created = upcastLoanEvent({
      type: 'LoanCreated',
      data: { loanId, userId, ...old, createdAt } as never,
    });
    expect(
      created.type === 'LoanCreated' && [created.data.emisAutoDebited, created.data.processingFeeGst],
    ).toEqual([true, true]);
    const stored = { loanId, userId, paymentNumber: 2, paidOn: '2024-04-01', amount: 5, recordedAt: now };
    const legacy = upcastLoanEvent({
      type: 'EmiMarkedPaid',
      data: { ...stored, transactionId: null } as never,
    });
    expect(legacy.data).toMatchObject({ markId: legacyMarkId(loanId, 2, '2024-04-01') });
    const matched = upcastLoanEvent({
      type: 'EmiMarkedPaid',
      data: { ...stored, transactionId: 't1' } as never,
    });
    expect(matched.type).toBe('EmiMatched');
  });
});
