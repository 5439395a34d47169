import { randomUUID } from 'node:crypto';
import { LOAN_CHANGE_MESSAGES, LOAN_MESSAGES, toPaise } from '@kosh/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { loanInput } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';

type Row = {
  kind: string;
  payment_number: number;
  emi_date: string;
  principal: number;
  interest: number;
  emi: number;
  remaining_principal: number;
  annual_rate: number | null;
};
type Amortization = { schedule: Row[]; summary: { number_of_payments: number; closed_on: string } };

/** Rupees (two decimals) to paise as BigInt, by their digits. */
const paise = (rupees: number) => BigInt(toPaise(rupees));
/** `balance × rate ÷ 1200`, rate as typed, rounded half away from zero: the row's interest in paise. */
function monthlyInterest(balance: bigint, rateText: string): bigint {
  const [whole, fraction = ''] = rateText.split('.');
  const rate = BigInt(`${whole}${fraction}`);
  const divisor = 1200n * 10n ** BigInt(fraction.length);
  return (2n * balance * rate + divisor) / (2n * divisor);
}

describe('loan arithmetic through the API (issue 27 items 1-4)', () => {
  let t: TestApp;
  const clock = testClock('2026-01-10T04:00:00.000Z', { step: 1000 });
  const alice = randomUUID();

  const create = async (change: Record<string, unknown>) => {
    const res = await t.as(alice).post('/api/loans', loanInput(change));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.loan.id as string;
  };
  const amortization = async (id: string) => {
    const res = await t.as(alice).get(`/api/loans/${id}/amortization`);
    expect(res.status).toBe(200);
    return res.body.data as Amortization;
  };
  const etag = async (id: string) => (await t.as(alice).get(`/api/loans/${id}`)).headers.etag;

  beforeAll(async () => {
    t = await createTestApp({ mode: 'postgres', clock });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('rounds the EMI from its exact value: ₹9,60,171.84 at 0.962% over 120 months pays ₹8,395.67', async () => {
    const id = await create({
      principal_amount: 960171.84,
      interest_rate: 0.962,
      duration: 120,
      is_duration_yearly: 0,
      start_date: '2020-05-05',
      end_date: '2030-05-05',
    });
    const { schedule } = await amortization(id);
    expect(schedule[0]).toMatchObject({ emi: 8395.67, interest: 769.74 });
    expect(schedule.at(-1)).toMatchObject({ payment_number: 120, emi: 8396.28, remaining_principal: 0 });
  });

  it('uses 9.1234567% as entered on an edit and at a rate reset, not 9.123457%', async () => {
    const id = await create({
      principal_amount: 100000000,
      interest_rate: 9.123,
      start_date: '2020-01-10',
      end_date: '2040-01-10',
    });
    const edited = await t.as(alice).put(
      `/api/loans/${id}`,
      loanInput({
        principal_amount: 100000000,
        interest_rate: 9.1234567,
        start_date: '2020-01-10',
        end_date: '2040-01-10',
      }),
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await t.as(alice).get(`/api/loans/${id}`)).body.data.loan.interest_rate).toBe(9.1234567);
    const contract = await amortization(id);
    // ₹10 crore × 9.1234567 ÷ 1200 = ₹7,60,288.0583…; 9.123457% would give ₹7,60,288.08.
    expect(contract.schedule[0]!.interest).toBe(760288.06);
    let balance = paise(100000000);
    for (const row of contract.schedule.slice(0, 24)) {
      expect(paise(row.interest)).toBe(monthlyInterest(balance, '9.1234567'));
      balance = paise(row.remaining_principal);
    }

    const reset = await t.as(alice).post(`/api/loans/${id}/rate-changes`, {
      date: '2024-03-01',
      annual_rate_percent: 10.7654321,
      option: 'increase-emi',
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(201);
    const revised = await amortization(id);
    const after = revised.schedule.filter((row) => row.emi_date > '2024-03-01');
    expect(after.every((row) => row.annual_rate === 10.7654321)).toBe(true);
    const index = revised.schedule.indexOf(after[0]!);
    balance = paise(revised.schedule[index - 1]!.remaining_principal);
    for (const row of after.slice(0, 24)) {
      expect(paise(row.interest)).toBe(monthlyInterest(balance, '10.7654321'));
      balance = paise(row.remaining_principal);
    }
  });

  it('refuses a rate or GST of more than 15 significant digits with a 422 on every path, recording nothing', async () => {
    const id = await create({ start_date: '2020-01-10', end_date: '2040-01-10' });
    const before = await etag(id);
    const edit = await t.as(alice).put(
      `/api/loans/${id}`,
      loanInput({
        start_date: '2020-01-10',
        end_date: '2040-01-10',
        interest_rate: '9.12345678901234567',
        has_gst: 1,
        gst_percentage: 18.000000000000004,
      }),
    );
    expect(edit.status).toBe(422);
    expect(edit.body.errors).toEqual([
      { field: 'interest_rate', message: LOAN_MESSAGES.interestRateTooPrecise },
      { field: 'gst_percentage', message: LOAN_MESSAGES.gstTooPrecise },
    ]);
    for (const rate of ['9.12345678901234567', 0.1 + 0.2]) {
      const reset = await t.as(alice).post(`/api/loans/${id}/rate-changes`, {
        date: '2024-03-01',
        annual_rate_percent: rate,
        option: 'increase-emi',
      });
      expect(reset.status).toBe(422);
      expect(reset.body.errors).toEqual([
        { field: 'annual_rate_percent', message: LOAN_CHANGE_MESSAGES.rateTooPrecise },
      ]);
    }
    const hex = await t.as(alice).post(`/api/loans/${id}/rate-changes`, {
      date: '2024-03-01',
      annual_rate_percent: '0x10',
      option: 'increase-emi',
    });
    expect(hex.status).toBe(422);
    expect(hex.body.errors).toEqual([
      { field: 'annual_rate_percent', message: LOAN_CHANGE_MESSAGES.rateInvalid },
    ]);
    expect(await etag(id)).toBe(before);
  });

  it('takes a monthly rate × 12 exactly: 0.76123456% a month charges 9.13481472% a year, not 9.134815%', async () => {
    const terms = {
      principal_amount: 100000000,
      is_interest_rate_yearly: 0,
      start_date: '2020-01-10',
      end_date: '2040-01-10',
    };
    const id = await create({ ...terms, interest_rate: 0.761 });
    expect(paise((await amortization(id)).schedule[0]!.interest)).toBe(
      monthlyInterest(paise(100000000), '9.132'),
    );
    const edited = await t
      .as(alice)
      .put(`/api/loans/${id}`, loanInput({ ...terms, interest_rate: 0.76123456 }));
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const { schedule } = await amortization(id);
    // ₹10 crore × 9.13481472 ÷ 1200 = ₹7,61,234.56; at 9.134815% it would be ₹7,61,234.58.
    expect(schedule[0]!.interest).toBe(761234.56);
    expect(paise(schedule[1]!.interest)).toBe(
      monthlyInterest(paise(schedule[0]!.remaining_principal), '9.13481472'),
    );
  });

  it('ends a loan its rounded-up EMI repays early on its last real instalment: ₹137.73 at 12.26% over 42 years', async () => {
    const id = await create({
      principal_amount: 137.73,
      interest_rate: 12.26,
      duration: 42,
      start_date: '2018-11-28',
      end_date: '2060-11-28',
    });
    const { schedule, summary } = await amortization(id);
    expect(schedule.filter((row) => row.emi === 0)).toEqual([]);
    expect(summary.number_of_payments).toBe(schedule.length);
    expect(schedule.length).toBeLessThan(504);
    expect(summary.closed_on).toBe(schedule.at(-1)!.emi_date);
    expect(schedule.at(-1)!.remaining_principal).toBe(0);
  });

  it('answers the FY 1999-00 certificate of a loan from 2000-01-01: its February and March 2000 EMIs', async () => {
    const id = await create({
      principal_amount: 100000,
      interest_rate: 12,
      duration: 5,
      start_date: '2000-01-01',
      end_date: '2005-01-01',
    });
    const res = await t.as(alice).get(`/api/loans/${id}/certificate?fy=1999-00`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.certificate).toMatchObject({ fy: '1999-00', interest: 1987.76, principal: 2461.12 });
  });
});
