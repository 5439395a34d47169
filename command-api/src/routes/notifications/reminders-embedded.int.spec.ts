import { randomUUID } from 'node:crypto';
import { listOutbox } from '@kosh/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { loanInput } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { waitUntil } from '../../testing/wait-until';

/**
 * Reminders in embedded mode (issue 31, item 5), as `npm start` runs with nothing configured:
 * PGlite, the in-process queue (its scan timer and the scan at start) and the mail outbox. An
 * EMI due is mailed once however often the scan runs (notifications.int.spec.ts covers the same
 * on PostgreSQL through SMTP).
 */
describe('reminders by mail (embedded)', () => {
  const clock = testClock('2026-03-01T04:00:00.000Z');
  let t: TestApp;
  const alice = randomUUID();

  const scan = () => t.platform.queue.enqueue('reminders:scan', {}, { jobId: 'reminders:scan' });
  const reminders = async () =>
    (await listOutbox(t.platform.db)).filter((mail) => mail.subject.startsWith('Reminder:'));

  beforeAll(async () => {
    t = await createTestApp({ mode: 'embedded', clock });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('mails an EMI due once, however often the scan runs', async () => {
    const set = await t.as(alice).put('/api/profile/notifications', {
      emi_due: true,
      recurring_due: false,
      days_before: 3,
    });
    expect(set.status, set.text).toBe(200);
    const loan = await t.as(alice).post('/api/loans', loanInput({ account_number: 'HL00033333' }));
    expect(loan.status, loan.text).toBe(201);
    const { rows } = await t.platform.db.query<{ n: number; due: string }>(
      `SELECT payment_number AS n, to_char(emi_date, 'YYYY-MM-DD') AS due FROM loan_schedule_rows
        WHERE loan_id = $1 AND kind = 'emi' AND emi_date > '2026-03-01' ORDER BY emi_date LIMIT 1`,
      [loan.body.data.loan.id],
    );
    const emi = rows[0];
    if (!emi) throw new Error('no EMI after March 2026');
    // Two days before the EMI, India time.
    clock.set(new Date(new Date(`${emi.due}T09:30:00+05:30`).getTime() - 2 * 86_400_000).toISOString());
    await t.caughtUp(['schedules', 'notifications']);

    await scan();
    await scan();
    await waitUntil(async () => (await reminders()).length > 0);
    await scan();
    await waitUntil(async () => (await t.platform.queue.depth()) === 0);
    const mailed = await reminders();
    expect(mailed.map((mail) => mail.subject)).toEqual([
      expect.stringMatching(new RegExp(`^Reminder: EMI ${emi.n} of .*HL00033333`)),
    ]);
    expect(mailed[0]?.text).toContain('/api/unsubscribe?token=');
  });
});
