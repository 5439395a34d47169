import { randomUUID } from 'node:crypto';
import { loanStreamId, transactionStreamId } from '@kosh/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answer } from '../testing/client';
import { testClock } from '../testing/clock';
import { loanInput } from '../testing/fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * One stream read per command (issue 29): PUT, DELETE and every loan change read their stream
 * once, and whether it is the caller's is the decider's answer from that read. The event store is
 * the real one, counted: each `readStream` is recorded by stream, then done by the store itself.
 */
let t: TestApp;
/** Today is 2026-01-10 in India; each call a second later. */
const clock = testClock('2026-01-10T04:00:00.000Z', { step: 1000 });
const alice = randomUUID();
const bob = randomUUID();
const reads: string[] = [];

type Mark = { mark_id: string; kind: string };

/** What `work` answered, and how many times it read `streamId`. */
async function counted(streamId: string, work: () => Promise<Answer>) {
  reads.length = 0;
  const answer = await work();
  return { answer, reads: reads.filter((id) => id === streamId).length };
}

/** An error answer without the instant it was made. */
const untimed = ({ timestamp: _, ...rest }: Record<string, unknown>) => rest;

/** The stream's current version, read past the counter. */
async function versionOf(streamId: string, readStream: TestApp['platform']['eventStore']['readStream']) {
  return (await readStream(streamId)).version;
}

describe('one stream read per command', () => {
  let readStream: TestApp['platform']['eventStore']['readStream'];

  beforeAll(async () => {
    t = await createTestApp({ clock });
    const store = t.platform.eventStore;
    readStream = store.readStream.bind(store);
    store.readStream = (streamId, options) => {
      reads.push(streamId);
      return readStream(streamId, options);
    };
  });

  afterAll(async () => {
    await t?.close();
  });

  const createLoan = async () => {
    const res = await t.as(alice).post('/api/loans', loanInput());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.data.loan.id as string, etag: String(res.headers.etag) };
  };

  const recordDebit = async (notes: string, date: string, amount: number) => {
    const body = { notes, transaction_type: 'D', transaction_date: date, amount };
    const res = await t.as(alice).post('/api/transactions', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res;
  };

  it("reads a loan's stream once to edit it, change it, mark and undo a payment, regenerate and delete it", async () => {
    reads.length = 0;
    const created = { answer: await t.as(alice).post('/api/loans', loanInput()) };
    expect(created.answer.status).toBe(201);
    const loanId = created.answer.body.data.loan.id as string;
    const stream = loanStreamId(loanId);
    // A new loan's stream has a fresh id: there is nothing to read.
    expect(reads.filter((id) => id === stream)).toHaveLength(0);
    const url = `/api/loans/${loanId}`;
    const ifMatch = (etag: unknown) => ({ headers: { 'if-match': String(etag) } });

    const edited = await counted(stream, () =>
      t.as(alice).put(url, loanInput({ account_number: 'HL00099999' }), ifMatch(created.answer.headers.etag)),
    );
    expect(edited.answer.status, JSON.stringify(edited.answer.body)).toBe(200);
    expect(edited.answer.body.data.loan).toMatchObject({ id: loanId, account_number: 'HL00099999' });
    expect(edited.answer.headers.etag).toBe('"3"');
    expect(edited.reads).toBe(1);

    const prepaid = await counted(stream, () =>
      t
        .as(alice)
        .post(
          `${url}/prepayments`,
          { date: '2025-06-20', amount: 100000, choice: 'reduce-tenure' },
          ifMatch(edited.answer.headers.etag),
        ),
    );
    expect(prepaid.answer.status, JSON.stringify(prepaid.answer.body)).toBe(201);
    expect(prepaid.answer.body.data.summary).toMatchObject({ version: 2, reason: 'prepaid' });
    expect(prepaid.reads).toBe(1);

    const marked = await counted(stream, () =>
      t.as(alice).post(`${url}/emis/3/payment`, { paid_on: '2025-06-15' }),
    );
    expect(marked.answer.status, JSON.stringify(marked.answer.body)).toBe(201);
    expect(marked.answer.body.message).toBe('EMI marked paid');
    expect(marked.reads).toBe(1);

    const mark = (marked.answer.body.data.summary.marks as Mark[])[0] as Mark;
    const undone = await counted(stream, () => t.as(alice).delete(`${url}/marks/${mark.mark_id}`));
    expect(undone.answer.status, JSON.stringify(undone.answer.body)).toBe(200);
    expect(undone.answer.body.message).toBe('Mark undone');
    expect(undone.reads).toBe(1);

    const regenerated = await counted(stream, () => t.as(alice).post(`${url}/amortization/regenerate`));
    expect(regenerated.answer.status, JSON.stringify(regenerated.answer.body)).toBe(200);
    expect(regenerated.answer.body.data.summary).toMatchObject({ version: 3 });
    expect(regenerated.reads).toBe(1);

    const version = await versionOf(stream, readStream);
    const deleted = await counted(stream, () => t.as(alice).delete(url, ifMatch(`"${version}"`)));
    expect(deleted.answer.status, JSON.stringify(deleted.answer.body)).toBe(200);
    expect(deleted.answer.body).toEqual({ success: true, message: 'Loan deleted successfully', data: null });
    expect(deleted.reads).toBe(1);
    expect((await t.as(alice).get(url)).status).toBe(404);
  });

  it('reads a transaction’s stream once to change and delete it; a matched debit’s loan is another stream, read once', async () => {
    const loan = await createLoan();
    const recorded = await recordDebit('EMI debit', '2025-05-15', 21000);
    const id = recorded.body.data.transaction.id as string;
    const stream = transactionStreamId(id);

    const changed = await counted(stream, () =>
      t
        .as(alice)
        .put(
          `/api/transactions/${id}`,
          { notes: 'EMI debit (May)', transaction_type: 'D', transaction_date: '2025-05-15', amount: 21000 },
          { headers: { 'if-match': String(recorded.headers.etag) } },
        ),
    );
    expect(changed.answer.status, JSON.stringify(changed.answer.body)).toBe(200);
    expect(changed.answer.body.data.transaction).toMatchObject({
      id,
      notes: 'EMI debit (May)',
      amount: 21000,
    });
    expect(changed.answer.headers.etag).toBe('"2"');
    expect(changed.reads).toBe(1);

    const matched = await t
      .as(alice)
      .post(`/api/loans/${loan.id}/emis/2/payment`, { transaction_id: id, confirm: true });
    expect(matched.status, JSON.stringify(matched.body)).toBe(201);
    expect(matched.body.message).toBe('Debit matched to the EMI');

    reads.length = 0;
    const deleted = await t.as(alice).delete(`/api/transactions/${id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toEqual({ success: true, message: 'Transaction deleted successfully!', data: null });
    expect(reads.filter((s) => s === stream)).toHaveLength(1);
    // The match is released on the loan's own stream, read once for that.
    expect(reads.filter((s) => s === loanStreamId(loan.id))).toHaveLength(1);
    const match = await t.as(alice).get(`/api/loans/debit-matches/${id}`);
    expect(match.body.data.match).toBeNull();
  });

  it("answers another user's loan or transaction exactly like a missing one, stale If-Match or not, from one read, appending nothing", async () => {
    const loan = await createLoan();
    const recorded = await recordDebit('Rent', '2025-05-01', 15000);
    const transaction = recorded.body.data.transaction.id as string;
    const missing = randomUUID();
    const transactionBody = {
      notes: 'mine now',
      transaction_type: 'C',
      transaction_date: '2025-05-01',
      amount: 1,
    };

    const attempts = (id: string) =>
      [
        ['PUT', `/api/loans/${id}`, loanInput()],
        ['DELETE', `/api/loans/${id}`],
        ['POST', `/api/loans/${id}/amortization/regenerate`],
        ['POST', `/api/loans/${id}/prepayments`, { date: '2025-06-20', amount: 1000, choice: 'reduce-emi' }],
        ['POST', `/api/loans/${id}/emis/4/payment`, { paid_on: '2025-07-15' }],
        ['POST', `/api/loans/${id}/emis/paid-up-to`, { up_to: '2025-07-15' }],
      ] as const;
    const transactionAttempts = (id: string) =>
      [
        ['PUT', `/api/transactions/${id}`, transactionBody],
        ['DELETE', `/api/transactions/${id}`],
      ] as const;

    for (const [streamId, own, other] of [
      [loanStreamId(loan.id), attempts(loan.id), attempts(missing)],
      [transactionStreamId(transaction), transactionAttempts(transaction), transactionAttempts(missing)],
    ] as const) {
      const before = await versionOf(streamId, readStream);
      for (const [i, [method, url, body]] of own.entries()) {
        const [, missingUrl, missingBody] = other[i] ?? [];
        const asMissing = await t.as(bob).send(method, String(missingUrl), missingBody);
        expect(asMissing.status, `${method} ${missingUrl}`).toBe(404);
        for (const headers of [{}, { 'if-match': '"1"' }] as Record<string, string>[]) {
          const res = await counted(streamId, () => t.as(bob).send(method, url, body, { headers }));
          expect(res.answer.status, `${method} ${url} ${JSON.stringify(headers)}`).toBe(404);
          expect(untimed(res.answer.body)).toEqual(untimed(asMissing.body));
          expect(res.reads, `${method} ${url}`).toBe(1);
        }
      }
      expect(await versionOf(streamId, readStream)).toBe(before);
    }
    expect((await t.as(alice).get(`/api/loans/${loan.id}`)).status).toBe(200);
    expect((await t.as(alice).get(`/api/transactions/${transaction}`)).status).toBe(200);
  });
});
