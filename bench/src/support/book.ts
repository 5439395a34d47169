/**
 * The seeded book of the transactions and HTTP benches: one user with many transactions spread
 * over ten years and 10 loans (with EMI schedules, two with GST, one regenerated), and other
 * users with their own transactions. Events go straight into the event log in batched inserts
 * (one stream per transaction, as the API writes them); the caller projects them.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  type DomainEvent,
  type LoanFields,
  loanDecider,
  loanStreamId,
  type TransactionRecorded,
  transactionStreamId,
} from '@kosh/domain';
import type { NewEvent } from '@kosh/event-store';
import type { Runtime } from '@kosh/platform';
import { random } from './random';

const DEBITS = [
  'Groceries at BigBasket',
  'Rent',
  'Electricity bill',
  'Swiggy order',
  'Zomato order',
  'Petrol',
  'Uber ride',
  'Mobile recharge',
  'Broadband bill',
  'Medical store',
  'School fees',
  'Amazon purchase',
  'Flipkart purchase',
  'Movie tickets',
  'Gym membership',
  'Insurance premium',
  'Maid salary',
  'Water can',
  'Gas cylinder',
  'Credit card payment',
];
const CREDITS = [
  'Salary',
  'Freelance invoice',
  'Interest credit',
  'Dividend',
  'Cashback',
  'Rent received',
  'Gift',
];

/** Loan terms in months, one per loan; the HTTP bench makes one of them 600. */
export const LOAN_DURATIONS = [240, 60, 36, 120, 84, 180, 24, 48, 300, 12] as const;

export type Book = {
  /** `categoryIds`: each transaction gets one of these (null: none), picked at random. */
  appendTransactions(
    userId: string,
    count: number,
    categoryIds?: readonly (string | null)[],
  ): Promise<number>;
  appendLoans(userId: string, durations?: readonly number[]): Promise<string[]>;
};

export function book(platform: Runtime, now: Date, seed = 42): Book {
  const rnd = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;

  function transactionEvent(
    userId: string,
    index: number,
    count: number,
    categoryIds?: readonly (string | null)[],
  ): TransactionRecorded {
    // Spread over 2016-01-01 .. 2025-12-31 in order, so every month has about count / 120 entries.
    const day = Math.floor((index / count) * 3653);
    const date = new Date(Date.UTC(2016, 0, 1 + day)).toISOString().slice(0, 10);
    const credit = rnd() < 0.2;
    const notes = `${credit ? pick(CREDITS) : pick(DEBITS)} #${1 + Math.floor(rnd() * 9999)}`;
    const amount = credit ? 100_000 + Math.floor(rnd() * 10_000_000) : 1_000 + Math.floor(rnd() * 2_000_000);
    return {
      type: 'TransactionRecorded',
      data: {
        transactionId: randomUUID(),
        userId,
        notes,
        transactionType: credit ? 'C' : 'D',
        transactionDate: date,
        amount,
        recordedAt: new Date(
          Date.UTC(2016, 0, 1, 10) + day * 86_400_000 + (index % 1000) * 1000,
        ).toISOString(),
        ...(categoryIds ? { categoryId: pick(categoryIds) } : {}),
      },
    };
  }

  const toNew = (userId: string, event: DomainEvent): NewEvent => ({
    id: randomUUID(),
    type: event.type,
    data: event.data,
    metadata: {
      userId,
      correlationId: randomUUID(),
      causationId: null,
      recordedAt: now.toISOString(),
      schemaVersion: 1,
    },
  });

  function loanFields(i: number, duration: number): LoanFields {
    const start = new Date(Date.UTC(2016 + (i % 9), (i * 5) % 12, 1 + ((i * 7) % 28)))
      .toISOString()
      .slice(0, 10);
    return {
      bankId: 1 + ((i * 3) % 20),
      loanTypeId: 1 + (i % 10),
      accountNumber: `AC${100000 + i * 7919}`,
      shortDetail: null,
      principalAmount: (5 + i * 9) * 100_000_00,
      interestRate: 7.5 + i * 0.75,
      isInterestRateYearly: true,
      duration,
      isDurationYearly: false,
      startDate: start,
      processingFee: 0,
      hasGst: i % 5 === 1,
      gstPercentage: i % 5 === 1 ? 18 : 0,
      emisAutoDebited: true,
      processingFeeGst: true,
    };
  }

  return {
    /**
     * Writes the transactions' events in batches of 2,000 rows per INSERT into the event log: the
     * same rows the append function writes (one stream per transaction, version 1), without
     * 100,000 round trips. Readers see them exactly as appended events. Returns seconds taken.
     */
    async appendTransactions(userId, count, categoryIds) {
      const started = performance.now();
      for (let from = 0; from < count; from += 2000) {
        const rows = [];
        for (let i = from; i < Math.min(count, from + 2000); i++) {
          const event = transactionEvent(userId, i, count, categoryIds);
          rows.push({ ...toNew(userId, event), stream: transactionStreamId(event.data.transactionId) });
        }
        await platform.db.query(
          `INSERT INTO events (event_id, stream_id, stream_version, type, data, metadata)
           SELECT r.id, r.stream, 1, r.type, r.data, r.metadata
             FROM jsonb_to_recordset($1::jsonb) AS r(id text, stream text, type text, data jsonb, metadata jsonb)`,
          [JSON.stringify(rows)],
        );
      }
      return (performance.now() - started) / 1000;
    },

    /** Ten loans through the decider (the first regenerated once); returns their ids. */
    async appendLoans(userId, durations = LOAN_DURATIONS) {
      const ids: string[] = [];
      for (const [i, duration] of durations.entries()) {
        const loanId = randomUUID();
        ids.push(loanId);
        let state = loanDecider.initialState();
        const created = loanDecider.decide(
          {
            type: 'CreateLoan',
            data: { loanId, userId, fields: loanFields(i, duration), now: now.toISOString() },
          },
          state,
        );
        state = created.reduce(loanDecider.evolve, state);
        const events = [...created];
        if (i === 0)
          events.push(
            ...loanDecider.decide(
              { type: 'RegenerateSchedule', data: { loanId, userId, now: now.toISOString() } },
              state,
            ),
          );
        await platform.eventStore.appendToStream(
          loanStreamId(loanId),
          events.map((e) => toNew(userId, e)),
          { expectedVersion: 'no_stream' },
        );
      }
      return ids;
    },
  };
}
