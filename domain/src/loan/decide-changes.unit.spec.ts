import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors';
import { DeciderSpecification } from '../testing/decider-specification';
import { loanFields } from '../testing/fixtures';
import { NegativeAmortisationError } from '../validation/loan-change';
import { actualSchedule, type LoanChange } from './actual-schedule';
import { LOAN_TERMS_LOCKED, loanDecider } from './decide';
import type { LoanCreated, LoanStreamEvent, ScheduleRevised } from './events';
import { generateSchedule } from './schedule';
import { scheduleTermsOf } from './state';

const given = DeciderSpecification.for(loanDecider);

const loanId = '0b7d8f4e-0000-4000-8000-00000000000a';
const userId = '6f1c2d7e-0000-4000-8000-000000000001';
const otherUserId = '6f1c2d7e-0000-4000-8000-000000000002';
const createdAt = '2024-01-31T10:00:00.000Z';
const now = '2026-01-10T10:00:00.000Z';

/** ₹10 lakh at 10.5% for 10 years from 2024-01-31. */
const fields = loanFields({
  principalAmount: 100000000,
  interestRate: 10.5,
  duration: 10,
  startDate: '2024-01-31',
});
const details = { ...fields, endDate: '2034-01-31' };
const terms = scheduleTermsOf(details);
const contract = generateSchedule(terms);

const history: LoanStreamEvent[] = [
  { type: 'LoanCreated', data: { loanId, userId, ...details, createdAt } } satisfies LoanCreated,
  {
    type: 'ScheduleGenerated',
    data: { loanId, userId, version: 1, reason: 'created', terms, ...contract, generatedAt: createdAt },
  },
];

function revised(
  version: number,
  reason: ScheduleRevised['data']['reason'],
  changes: LoanChange[],
  at = now,
): ScheduleRevised {
  const { rows, totals } = actualSchedule(terms, changes);
  return {
    type: 'ScheduleRevised',
    data: { loanId, userId, version, reason, terms, changes, rows, totals, generatedAt: at },
  };
}

const prepayment: LoanChange = {
  kind: 'prepayment',
  date: '2025-03-10',
  amount: 20000000,
  charge: 0,
  choice: 'reduce-tenure',
};
const prepaid: LoanStreamEvent[] = [
  ...history,
  {
    type: 'LoanPrepaid',
    data: {
      loanId,
      userId,
      date: '2025-03-10',
      amount: 20000000,
      charge: 0,
      choice: 'reduce-tenure',
      recordedAt: now,
    },
  },
  revised(2, 'prepaid', [prepayment]),
];

describe('RecordPrepayment', () => {
  it('records the prepayment and the schedule it makes, as the next version', () => {
    given(history)
      .when({
        type: 'RecordPrepayment',
        data: {
          loanId,
          userId,
          date: '2025-03-10',
          amount: 20000000,
          charge: 0,
          choice: 'reduce-tenure',
          now,
        },
      })
      .then(prepaid.slice(2));
  });

  it('places a backdated prepayment before later changes', () => {
    const reset: LoanChange = {
      kind: 'rate-change',
      date: '2025-06-30',
      annualRatePercent: 9.5,
      option: 'increase-emi',
      newEmi: null,
    };
    const earlier: LoanChange = { ...prepayment, date: '2025-01-05', choice: 'reduce-emi' };
    given([
      ...history,
      {
        type: 'LoanRateChanged',
        data: {
          loanId,
          userId,
          date: '2025-06-30',
          annualRatePercent: 9.5,
          option: 'increase-emi',
          newEmi: null,
          recordedAt: now,
        },
      },
      revised(2, 'rate-changed', [reset]),
    ])
      .when({
        type: 'RecordPrepayment',
        data: { loanId, userId, date: '2025-01-05', amount: 20000000, charge: 0, choice: 'reduce-emi', now },
      })
      .then([
        {
          type: 'LoanPrepaid',
          data: {
            loanId,
            userId,
            date: '2025-01-05',
            amount: 20000000,
            charge: 0,
            choice: 'reduce-emi',
            recordedAt: now,
          },
        },
        revised(3, 'prepaid', [earlier, reset]),
      ]);
  });

  it('refuses a date after today (India), a prepayment of the whole balance, and another user’s loan', () => {
    const command = {
      type: 'RecordPrepayment' as const,
      data: {
        loanId,
        userId,
        date: '2026-01-11',
        amount: 20000000,
        charge: 0,
        choice: 'reduce-emi' as const,
        now,
      },
    };
    given(history)
      .when(command)
      .thenThrows(ValidationError, (error) =>
        expect(error.errors).toEqual([{ field: 'date', message: 'The date cannot be in the future' }]),
      );
    given(history)
      .when({ ...command, data: { ...command.data, date: '2024-02-29', amount: 99525650 } })
      .thenThrows(ValidationError, (error) => expect(error.errors[0]!.field).toBe('amount'));
    given(history)
      .when({ ...command, data: { ...command.data, userId: otherUserId, date: '2025-01-05' } })
      .thenThrows(NotFoundError);
  });
});

describe('ChangeLoanRate', () => {
  it('refuses a rate a JSON number cannot hold as typed (0.1 + 0.2 is 0.30000000000000004)', () => {
    given(history)
      .when({
        type: 'ChangeLoanRate',
        data: {
          loanId,
          userId,
          date: '2025-01-31',
          annualRatePercent: 0.1 + 0.2,
          option: 'increase-emi',
          newEmi: null,
          now,
        },
      })
      .thenThrows(ValidationError, (error) =>
        expect(error.errors).toEqual([
          { field: 'annualRatePercent', message: 'Interest rate can have at most 15 significant digits' },
        ]),
      );
  });

  it('still replays a reset stored with more digits before the rule, at its shortest decimal text', () => {
    const stored: LoanChange = {
      kind: 'rate-change',
      date: '2025-01-31',
      annualRatePercent: 10.000000000000002,
      option: 'increase-emi',
      newEmi: null,
    };
    const { rows } = actualSchedule(terms, [stored]);
    expect(rows.at(-1)!.remainingPrincipal).toBe(0);
    expect(rows.at(-1)!.annualRatePercent).toBe(10.000000000000002);
  });

  it('records the reset with the borrower’s option; the new EMI is kept only for a combination', () => {
    const change: LoanChange = {
      kind: 'rate-change',
      date: '2025-01-31',
      annualRatePercent: 11.5,
      option: 'extend-tenure',
      newEmi: null,
    };
    given(history)
      .when({
        type: 'ChangeLoanRate',
        data: {
          loanId,
          userId,
          date: '2025-01-31',
          annualRatePercent: 11.5,
          option: 'extend-tenure',
          newEmi: 1500000,
          now,
        },
      })
      .then([
        {
          type: 'LoanRateChanged',
          data: {
            loanId,
            userId,
            date: '2025-01-31',
            annualRatePercent: 11.5,
            option: 'extend-tenure',
            newEmi: null,
            recordedAt: now,
          },
        },
        revised(2, 'rate-changed', [change]),
      ]);
  });

  it('refuses a combination whose EMI does not cover the interest, recording nothing', () => {
    given(history)
      .when({
        type: 'ChangeLoanRate',
        data: {
          loanId,
          userId,
          date: '2025-01-31',
          annualRatePercent: 12,
          option: 'combination',
          newEmi: 800000,
          now,
        },
      })
      .thenThrows(NegativeAmortisationError, (error) =>
        expect(error.errors).toEqual([
          {
            field: 'newEmi',
            message:
              'The EMI of ₹8,000.00 does not cover the monthly interest of ₹9,402.57; enter an EMI above ₹9,402.57',
          },
        ]),
      );
  });
});

describe('OverrideEmi', () => {
  it('records the lender’s EMI and the schedule around it', () => {
    given(history)
      .when({ type: 'OverrideEmi', data: { loanId, userId, date: '2024-01-31', emi: 1349400, now } })
      .then([
        {
          type: 'EmiOverridden',
          data: { loanId, userId, date: '2024-01-31', emi: 1349400, recordedAt: now },
        },
        revised(2, 'emi-overridden', [{ kind: 'emi-override', date: '2024-01-31', emi: 1349400 }]),
      ]);
  });
});

describe('ForecloseLoan', () => {
  const foreclosure: LoanChange = { kind: 'foreclosure', date: '2024-03-15', charge: 1990513 };
  const foreclosed: LoanStreamEvent[] = [
    ...history,
    {
      type: 'LoanForeclosed',
      data: {
        loanId,
        userId,
        date: '2024-03-15',
        charge: 1990513,
        // 99,525,650 owed after EMI 1, 15 days' interest at 10.5% actual/365 = 429,460, and the charge.
        settlement: {
          principal: 99525650,
          interest: 429460,
          gst: 0,
          charge: 1990513,
          amount: 101945623,
          advanceCredit: 0,
          advanceEmis: [],
        },
        recordedAt: now,
      },
    },
    revised(2, 'foreclosed', [foreclosure]),
  ];

  it('closes the loan with what the borrower paid to close it', () => {
    given(history)
      .when({ type: 'ForecloseLoan', data: { loanId, userId, date: '2024-03-15', charge: 1990513, now } })
      .then(foreclosed.slice(2));
  });

  it('refuses any change after it, but EMIs paid before it can still be marked', () => {
    given(foreclosed)
      .when({ type: 'OverrideEmi', data: { loanId, userId, date: '2024-01-31', emi: 1349400, now } })
      .thenThrows(ConflictError, (error) =>
        expect(error.message).toBe('The loan was foreclosed on 2024-03-15; nothing can change after that'),
      );
    given(foreclosed)
      .when({
        type: 'MarkEmiPaid',
        data: { loanId, userId, markId: 'm1', paymentNumber: 1, paidOn: '2024-02-29', amount: 1349350, now },
      })
      .then([
        {
          type: 'EmiMarkedPaid',
          data: {
            loanId,
            userId,
            markId: 'm1',
            paymentNumber: 1,
            paidOn: '2024-02-29',
            amount: 1349350,
            transactionId: null,
            recordedAt: now,
          },
        },
      ]);
  });
});

describe('existing commands on a loan with changes', () => {
  it('refuses to edit the schedule terms, but still edits the rest', () => {
    given(prepaid)
      .when({ type: 'UpdateLoan', data: { loanId, userId, fields: { ...fields, interestRate: 9 }, now } })
      .thenThrows(ConflictError, (error) => expect(error.message).toBe(LOAN_TERMS_LOCKED));
    given(prepaid)
      .when({
        type: 'UpdateLoan',
        data: { loanId, userId, fields: { ...fields, accountNumber: 'HL99999999' }, now },
      })
      .then([
        {
          type: 'LoanUpdated',
          data: {
            loanId,
            userId,
            changes: { accountNumber: 'HL99999999' },
            previous: { accountNumber: 'HL00012345' },
            updatedAt: now,
          },
        },
      ]);
  });

  it('regenerates the actual schedule, changes included', () => {
    given(prepaid)
      .when({ type: 'RegenerateSchedule', data: { loanId, userId, now } })
      .then([revised(3, 'regenerated', [prepayment])]);
  });
});
