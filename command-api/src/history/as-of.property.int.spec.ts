import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testClock } from '../testing/clock';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * Property: for random command sequences, the as-of answer at the instant of each command equals
 * the live answer captured right after it, on every as-of route.
 */

const clock = testClock('2025-06-01T04:00:00.000Z');
let t: TestApp;

/** The answer without its wall-clock `timestamp` (error answers carry one). */
async function read(userId: string, url: string) {
  const { status, body } = await t.as(userId).get(url);
  return { status, body: { ...body, timestamp: undefined } };
}
type Answer = Awaited<ReturnType<typeof read>>;

type Op =
  | { kind: 'txn'; type: 'C' | 'D'; day: number; paise: number }
  | { kind: 'editTxn'; pick: number; type: 'C' | 'D'; day: number; paise: number }
  | { kind: 'deleteTxn'; pick: number }
  | { kind: 'loan'; paise: number; rate: number; months: number }
  | { kind: 'editLoan'; pick: number; rate: number }
  | { kind: 'regenerate'; pick: number }
  | { kind: 'deleteLoan'; pick: number };

const day = fc.integer({ min: 0, max: 400 });
const paise = fc.integer({ min: 1, max: 50_000_000 });
const side = fc.constantFrom<'C' | 'D'>('C', 'D');
const pick = fc.nat();
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('txn' as const), type: side, day, paise }),
  fc.record({ kind: fc.constant('editTxn' as const), pick, type: side, day, paise }),
  fc.record({ kind: fc.constant('deleteTxn' as const), pick }),
  fc.record({
    kind: fc.constant('loan' as const),
    paise: fc.integer({ min: 100_000, max: 500_000_000 }),
    rate: fc.integer({ min: 100, max: 2000 }),
    months: fc.integer({ min: 1, max: 36 }),
  }),
  fc.record({ kind: fc.constant('editLoan' as const), pick, rate: fc.integer({ min: 100, max: 2000 }) }),
  fc.record({ kind: fc.constant('regenerate' as const), pick }),
  fc.record({ kind: fc.constant('deleteLoan' as const), pick }),
);

const dateOf = (offset: number) =>
  new Date(Date.parse('2025-01-01') + offset * 86_400_000).toISOString().slice(0, 10);

const loanBody = (principalPaise: number, ratePerCent: number, months: number) => ({
  bank_id: 1,
  loan_type_id: 1,
  account_number: 'PROP1',
  short_detail: null,
  principal_amount: principalPaise / 100,
  interest_rate: ratePerCent / 100,
  is_interest_rate_yearly: 1,
  duration: months,
  is_duration_yearly: 0,
  start_date: '2025-02-10',
  processing_fee: 0,
  has_gst: 1,
  gst_percentage: 18,
});

beforeAll(async () => {
  t = await createTestApp({ clock });
});

afterAll(async () => {
  await t?.close();
});

it('answers as of each command exactly what was answered live right after it', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(op, fc.integer({ min: 1, max: 60 * 24 * 20 })), { minLength: 1, maxLength: 6 }),
      async (script) => {
        const user = randomUUID();
        await t.signedInHeader(user);
        const txns: string[] = [];
        const loans: { id: string; body: ReturnType<typeof loanBody> }[] = [];
        const steps: { at: string; answers: Map<string, Answer> }[] = [];
        for (const [o, minutes] of script) {
          clock.advance(minutes * 60_000);
          const txn = txns.length > 0 ? txns[(o as { pick: number }).pick % txns.length] : undefined;
          const loan = loans.length > 0 ? loans[(o as { pick: number }).pick % loans.length] : undefined;
          switch (o.kind) {
            case 'txn': {
              const body = {
                notes: 'p',
                transaction_type: o.type,
                transaction_date: dateOf(o.day),
                amount: o.paise / 100,
              };
              const answer = await t.as(user).post('/api/transactions', body);
              if (answer.status === 201) txns.push(answer.body.data.transaction.id);
              break;
            }
            case 'editTxn':
              if (txn) {
                const body = {
                  notes: 'q',
                  transaction_type: o.type,
                  transaction_date: dateOf(o.day),
                  amount: o.paise / 100,
                };
                await t.as(user).put(`/api/transactions/${txn}`, body);
              }
              break;
            case 'deleteTxn':
              if (txn) await t.as(user).delete(`/api/transactions/${txn}`);
              break;
            case 'loan': {
              const body = loanBody(o.paise, o.rate, o.months);
              const answer = await t.as(user).post('/api/loans', body);
              if (answer.status === 201) loans.push({ id: answer.body.data.loan.id, body });
              break;
            }
            case 'editLoan':
              if (loan)
                await t.as(user).put(`/api/loans/${loan.id}`, {
                  ...loan.body,
                  interest_rate: o.rate / 100,
                });
              break;
            case 'regenerate':
              if (loan) await t.as(user).post(`/api/loans/${loan.id}/amortization/regenerate`);
              break;
            case 'deleteLoan':
              if (loan) await t.as(user).delete(`/api/loans/${loan.id}`);
              break;
          }
          const urls = [
            '/api/ledger',
            '/api/ledger?month=3&year=2025',
            '/api/ledger/periods',
            '/api/loans',
            '/api/loans/stats',
            '/api/transactions?limit=100',
            '/api/transactions/stats',
            ...loans.flatMap((l) => [`/api/loans/${l.id}`, `/api/loans/${l.id}/amortization`]),
          ];
          const answers = new Map<string, Answer>();
          for (const url of urls) answers.set(url, await read(user, url));
          steps.push({ at: clock().toISOString(), answers });
        }
        expect(await t.caughtUp(['history'])).toBe(true);
        for (const { at, answers } of steps) {
          for (const [url, live] of answers) {
            const asOf = `${url}${url.includes('?') ? '&' : '?'}as_of=${encodeURIComponent(at)}`;
            expect({ url, at, ...(await read(user, asOf)) }).toEqual({ url, at, ...live });
          }
        }
      },
    ),
    { numRuns: 6 },
  );
}, 180_000);
