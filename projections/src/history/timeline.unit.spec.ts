import type { RecordedEvent } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { historyRecordOf } from './projector';
import { type HistoryEvent, streamIdOfWire, timelineEntry, wireStreamOf } from './timeline';

const position = '00000000000000000001:00000000000000000001';
const names = {
  banks: new Map([[3, 'HDFC Bank']]),
  loanTypes: new Map([[1, 'Home Loan']]),
  loans: new Map([[position, 'HL20200505 · HDFC Bank - Andheri']]),
};
const user = 'u-1';

const recorded = (
  streamId: string,
  type: string,
  data: Record<string, unknown>,
  userId: string | null = user,
) =>
  ({
    id: `e-${type}`,
    streamId,
    streamVersion: 1,
    position,
    type,
    data,
    metadata: {
      userId,
      correlationId: 'c-1',
      causationId: null,
      recordedAt: '2026-01-10T04:00:00.000Z',
      schemaVersion: 1,
    },
  }) as RecordedEvent;

const entryOf = (event: RecordedEvent, previous: Record<string, unknown> | null = null) => {
  const record = historyRecordOf(event);
  if (!record) throw new Error('not kept');
  const stored: HistoryEvent = { ...record, correlationId: record.metadata.correlationId };
  return timelineEntry(stored, previous, names);
};

describe('the history read model', () => {
  it('keeps user-owned streams only, with the owner named by the data when registration is anonymous', () => {
    expect(historyRecordOf(recorded('user-u-1', 'UserRegistered', { userId: user }, null))?.userId).toBe(
      user,
    );
    expect(historyRecordOf(recorded('bank-9', 'BankAdded', { ownerUserId: null }, null))).toBeNull();
    expect(historyRecordOf(recorded('email-abc', 'EmailReserved', { userId: user }))).toBeNull();
    expect(historyRecordOf(recorded('bank-1001', 'BankAdded', { ownerUserId: user }, null))?.userId).toBe(
      user,
    );
  });

  it('never keeps a password hash, a token hash or a sealed token', () => {
    const events = [
      recorded('user-u-1', 'UserRegistered', { userId: user, passwordHash: 'h1', email: 'a@b.in' }),
      recorded('user-u-1', 'PasswordChanged', { userId: user, passwordHash: 'h2' }),
      recorded('user-u-1', 'PasswordResetRequested', { userId: user, tokenHash: 't', sealedToken: 's' }),
    ];
    for (const event of events) {
      const text = JSON.stringify([historyRecordOf(event), entryOf(event)]);
      expect(text).not.toMatch(/passwordHash|tokenHash|sealedToken|"h1"|"h2"/);
    }
  });
});

describe('timeline entries', () => {
  it('names loan fields as the loan form does, lenders by name, money in rupees', () => {
    const entry = entryOf(
      recorded('loan-l-1', 'LoanUpdated', {
        loanId: 'l-1',
        changes: { bankId: 3, principalAmount: 250000000, hasGst: true, isDurationYearly: false },
        previous: { bankId: 4, principalAmount: 200000050, hasGst: false, isDurationYearly: true },
      }),
    );
    expect(entry).toMatchObject({
      stream: 'loan:l-1',
      summary:
        'Loan HL20200505 · HDFC Bank - Andheri edited (Bank, Principal Amount, Duration in, GST applies to the interest)',
    });
    expect(entry.changes).toEqual([
      { field: 'Bank', from: 'Bank 4', to: 'HDFC Bank' },
      { field: 'Principal Amount', from: 2000000.5, to: 2500000 },
      { field: 'Duration in', from: 'Years', to: 'Months' },
      { field: 'GST applies to the interest', from: false, to: true },
    ]);
  });

  it('diffs a profile edit against the values before it, and an e-mail change', () => {
    const edited = entryOf(recorded('user-u-1', 'ProfileUpdated', { firstName: 'Asha', lastName: 'Rao' }), {
      firstName: 'Asha',
      lastName: 'Iyer',
    });
    expect(edited.changes).toEqual([{ field: 'Last Name', from: 'Iyer', to: 'Rao' }]);
    const moved = entryOf(recorded('user-u-1', 'EmailChanged', { previousEmail: 'a@b.in', email: 'c@d.in' }));
    expect(moved.changes).toEqual([{ field: 'Email', from: 'a@b.in', to: 'c@d.in' }]);
  });

  it('says what happened for events without field changes', () => {
    expect(
      entryOf(recorded('user-u-1', 'PasswordChanged', { userId: user, passwordHash: 'x' })),
    ).toMatchObject({
      summary: 'Password changed',
      changes: [],
    });
    expect(entryOf(recorded('loan-l-1', 'LoanDeleted', { loanId: 'l-1' })).summary).toBe(
      'Loan HL20200505 · HDFC Bank - Andheri deleted',
    );
  });

  it('writes each loan change with the loan’s name, ₹ amounts, dates and choices in words', () => {
    const loan = 'HL20200505 · HDFC Bank - Andheri';
    const at = (type: string, data: Record<string, unknown>) =>
      entryOf(recorded('loan-l-1', type, { loanId: 'l-1', userId: user, recordedAt: '2026-01-10', ...data }));
    expect(
      at('LoanPrepaid', { date: '2025-06-20', amount: 50000000, charge: 0, choice: 'reduce-tenure' }),
    ).toMatchObject({
      summary: `Part-payment of ₹5,00,000.00 on loan ${loan}, tenure reduced`,
      changes: [
        { field: 'Date', from: null, to: '2025-06-20' },
        { field: 'Amount', from: null, to: 500000 },
        { field: 'After the part-payment', from: null, to: 'Reduce tenure' },
      ],
    });
    expect(
      at('LoanRateChanged', {
        date: '2024-05-05',
        annualRatePercent: 9.25,
        option: 'combination',
        newEmi: 4100000,
      }),
    ).toMatchObject({
      summary: `Rate of loan ${loan} reset to 9.25% from 05 May 2024`,
      changes: [
        { field: 'Effective Date', from: null, to: '2024-05-05' },
        { field: 'New Annual Rate', from: null, to: '9.25%' },
        { field: 'Reset Option', from: null, to: 'A new EMI, the tenure follows' },
        { field: 'New EMI (before GST)', from: null, to: 41000 },
      ],
    });
    expect(at('EmiOverridden', { date: '2024-06-05', emi: 4100000 }).summary).toBe(
      `EMI of loan ${loan} set to ₹41,000.00 from 05 Jun 2024`,
    );
    const settlement = {
      principal: 100000000,
      interest: 500000,
      gst: 90000,
      charge: 200000,
      amount: 100790000,
    };
    const foreclosed = at('LoanForeclosed', { date: '2025-12-20', charge: 200000, settlement });
    expect(foreclosed.summary).toBe(`Loan ${loan} foreclosed on 20 Dec 2025 (settlement ₹10,07,900.00)`);
    expect(foreclosed.changes.map((c) => [c.field, c.to])).toEqual([
      ['Date', '2025-12-20'],
      ['Principal', 1000000],
      ['Interest', 5000],
      ['GST', 900],
      ['Charge', 2000],
      ['Settlement', 1007900],
    ]);
    expect(
      at('EmiMarkedPaid', { paymentNumber: 12, paidOn: '2021-05-06', amount: 4976616, transactionId: 't-1' }),
    ).toMatchObject({
      summary: `EMI 12 of loan ${loan} marked paid on 06 May 2021 (₹49,766.16)`,
      changes: [
        { field: 'EMI Number', from: null, to: 12 },
        { field: 'Paid On', from: null, to: '2021-05-06' },
        { field: 'Amount', from: null, to: 49766.16 },
        { field: 'Matched to a debit', from: null, to: true },
      ],
    });
  });

  it('maps wire stream names both ways, only for the caller’s own profile', () => {
    for (const stream of ['loan:8c1e', 'transaction:8c1e', 'bank:1001', 'loan_type:1001']) {
      expect(wireStreamOf(streamIdOfWire(stream, user) as string)).toBe(stream);
    }
    expect(streamIdOfWire('profile', user)).toBe('user-u-1');
    expect(streamIdOfWire('user:u-2', user)).toBeNull();
    expect(streamIdOfWire("loan:1' OR 1=1", user)).toBeNull();
  });
});

describe('payment events on the timeline', () => {
  const created = { accountNumber: 'HL00012345', bankId: 3, loanTypeId: 1 };

  it('name the loan as the screens do and say what was marked', () => {
    const upTo = recorded('loan-l-1', 'EmisMarkedPaidUpTo', {
      loanId: 'l-1',
      markId: 'm-1',
      upTo: '2025-12-31',
      paymentNumbers: [1, 2, 3],
    });
    expect(entryOf(upTo, created).summary).toBe(
      '3 EMIs of loan HL20200505 · HDFC Bank - Andheri due up to 31 Dec 2025 marked paid on their due dates',
    );
    const matched = recorded('loan-l-1', 'EmiMatched', {
      loanId: 'l-1',
      markId: 'm-2',
      paymentNumber: 4,
      transactionId: 't-1',
      paidOn: '2026-01-16',
      amount: 231075,
    });
    expect(entryOf(matched, created).summary).toBe(
      'Debit of ₹2,310.75 on 16 Jan 2026 matched to EMI 4 of loan HL20200505 · HDFC Bank - Andheri',
    );
    const released = recorded('loan-l-1', 'EmiMatchReleased', {
      loanId: 'l-1',
      markId: 'm-2',
      transactionId: 't-1',
      reason: 'transaction-deleted',
    });
    expect(entryOf(released, null).summary).toBe(
      'Match of a deleted debit to loan HL20200505 · HDFC Bank - Andheri released',
    );
  });

  it('label the two new loan fields as the form asks them', () => {
    const edited = recorded('loan-l-1', 'LoanUpdated', {
      loanId: 'l-1',
      changes: { emisAutoDebited: false },
      previous: { emisAutoDebited: true },
    });
    expect(entryOf(edited).changes).toEqual([
      { field: 'EMIs are auto-debited from my bank account', from: true, to: false },
    ]);
  });
});
