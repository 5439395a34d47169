import { randomUUID } from 'node:crypto';
import { userFixture } from '@kosh/command-api/testing';
import {
  addDays,
  calendarDateOf,
  type NotificationPreferencesSet,
  notificationStreamId,
  occurrencesBetween,
  type RecurringEntryCreated,
  recurringStreamId,
} from '@kosh/domain';
import { createPostgresEventStore, type EventStore } from '@kosh/event-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpPeer, startSmtpPeer } from '../testing/smtp-peer';
import { type Stack, startStack } from './stack';

/**
 * Issue 31: recurring posting and reminders under the production shape, two worker processes
 * (`npm run workers`) on PostgreSQL and Redis, each posting every second and scanning for
 * reminders every second. A worker is killed (SIGKILL) in the middle of posting hundreds of
 * occurrences and started again: every due occurrence is posted exactly once. Reminders found by
 * both workers, scan after scan, are mailed once each.
 */
const ENTRIES = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let stack: Stack;
let smtp: SmtpPeer;
let store: EventStore;

const meta = (userId: string, at: string) => ({
  userId,
  correlationId: randomUUID(),
  causationId: null,
  recordedAt: at,
  schemaVersion: 1,
});

async function createEntry(userId: string, details: RecurringEntryCreated['data'], at: string) {
  await store.appendToStream(
    recurringStreamId(details.recurringId),
    [{ id: randomUUID(), type: 'RecurringEntryCreated', data: details, metadata: meta(userId, at) }],
    { expectedVersion: 'no_stream' },
  );
}

const postedCount = async () =>
  Number(
    (
      await stack.database.db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM events WHERE type = 'TransactionRecorded' AND data ? 'recurringId'`,
      )
    ).rows[0]?.n,
  );

describe('recurring entries and reminders with two worker processes', () => {
  beforeAll(async () => {
    smtp = await startSmtpPeer();
    stack = await startStack({
      apis: 0,
      workers: 2,
      env: { RECURRING_POST_EVERY_MS: '1000', REMINDER_SCAN_EVERY_MS: '1000', SMTP_URL: smtp.url },
    });
    store = createPostgresEventStore(stack.database.db);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await smtp?.close();
  });

  it('posts every due occurrence exactly once though a worker is killed mid-run', async () => {
    const userId = randomUUID();
    await stack.signUp(userId);
    const today = calendarDateOf(new Date());
    // Entries created 85 days ago, so each has about three occurrences due (within the 92 days
    // a run catches up), recorded straight in the log as the API would have.
    const start = addDays(today, -85);
    const createdAt = new Date(Date.now() - 85 * 86_400_000).toISOString();
    let expected = 0;
    for (let i = 0; i < ENTRIES; i++) {
      const details = {
        recurringId: randomUUID(),
        userId,
        transactionType: i % 2 === 0 ? ('D' as const) : ('C' as const),
        amount: 10_000 + i,
        notes: `Entry ${i}`,
        payee: null,
        categoryId: null,
        accountId: null,
        frequency: 'monthly' as const,
        dayOfMonth: (i % 28) + 1,
        startDate: start,
        endDate: null,
        createdAt,
      };
      expected += occurrencesBetween(details, start, today).length;
      await createEntry(userId, details, createdAt);
    }
    expect(expected).toBeGreaterThan(ENTRIES * 2);

    const [first, second] = stack.workers;
    if (!first || !second) throw new Error('two workers expected');
    // Kill the first worker once posting is under way, then the second, each started again.
    const deadline = Date.now() + 60_000;
    while ((await postedCount()) < 20 && Date.now() < deadline) await sleep(20);
    const atFirstKill = await postedCount();
    await stack.kill(first);
    await sleep(300);
    await stack.start(first);
    await stack.kill(second);
    await stack.start(second);
    console.log(`recurring faults: ${atFirstKill} of ${expected} posted when worker-1 was killed`);
    expect(atFirstKill).toBeLessThan(expected);

    // A bound, not a delay: on a loaded machine two workers post the 867 in 20 s to 2 minutes.
    while ((await postedCount()) < expected && Date.now() < deadline + 180_000) await sleep(200);
    // Scans go on every second in both workers: nothing more may appear.
    await sleep(3000);
    expect(await postedCount()).toBe(expected);
    const { rows: duplicates } = await stack.database.db.query(
      `SELECT data->>'recurringId' AS id, data->>'occurrenceDate' AS date, count(*) AS n FROM events
        WHERE type = 'TransactionRecorded' AND data ? 'recurringId'
        GROUP BY 1, 2 HAVING count(*) > 1`,
    );
    expect(duplicates).toEqual([]);
  }, 300_000);

  it('mails each reminder once, scan after scan, across the two workers', async () => {
    const today = calendarDateOf(new Date());
    const due = addDays(today, 2);
    const users = Array.from({ length: 5 }, () => randomUUID());
    const now = new Date().toISOString();
    for (const userId of users) {
      await stack.signUp(userId);
      const set: NotificationPreferencesSet['data'] = {
        userId,
        changes: { recurringDue: true },
        previous: { emiDue: false, recurringDue: false, budgetCrossed: false, daysBefore: 3 },
        updatedAt: now,
      };
      await store.appendToStream(
        notificationStreamId(userId),
        [{ id: randomUUID(), type: 'NotificationPreferencesSet', data: set, metadata: meta(userId, now) }],
        { expectedVersion: 'no_stream' },
      );
      await createEntry(
        userId,
        {
          recurringId: randomUUID(),
          userId,
          transactionType: 'D',
          amount: 150_000,
          notes: 'SIP',
          payee: 'Mutual fund',
          categoryId: null,
          accountId: null,
          frequency: 'monthly',
          dayOfMonth: Number(due.slice(8, 10)),
          startDate: today,
          endDate: null,
          createdAt: now,
        },
        now,
      );
    }
    const addresses = users.map((u) => userFixture(u).email);
    const reminders = () =>
      smtp.received.filter((m) => addresses.includes(m.to) && m.subject.startsWith('Reminder:'));
    const deadline = Date.now() + 60_000;
    while (reminders().length < users.length && Date.now() < deadline) await sleep(200);
    // Both workers keep scanning every second and find the same reminders again.
    await sleep(5000);
    const mails = reminders();
    expect(mails.map((m) => m.to).sort()).toEqual([...addresses].sort());
    const [y, m, d] = due.split('-');
    expect(mails[0]?.subject).toBe(`Reminder: SIP (Mutual fund) due on ${d}/${m}/${y}`);
    expect(
      mails[0]?.headerLines.some((line) => /^list-unsubscribe-post: List-Unsubscribe=One-Click$/i.test(line)),
    ).toBe(true);
  }, 120_000);
});
