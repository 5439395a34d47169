import { randomUUID } from 'node:crypto';
import { type SmtpPeer, startSmtpPeer } from '@kosh/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../../testing/clock';
import { loanInput } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { waitUntil } from '../../testing/wait-until';
import { UNSUBSCRIBE_INVALID } from './index';

/**
 * Reminders by mail (issue 31, item 5) through a real SMTP server: preferences kept on the server
 * (422 for bad ones), an EMI reminded unless paid (the paid-EMI model), a recurring entry's next
 * occurrence reminded, each reminder mailed once however often the scan runs, and a one-click
 * unsubscribe link that needs no sign-in and works once.
 */
describe('reminders by mail', () => {
  const clock = testClock('2026-03-01T04:00:00.000Z');
  let t: TestApp;
  let smtp: SmtpPeer;
  const alice = randomUUID();

  const scan = () => t.platform.queue.enqueue('reminders:scan', {}, { jobId: 'reminders:scan' });
  const eventCount = async () =>
    Number((await t.platform.db.query<{ n: string }>('SELECT count(*)::text AS n FROM events')).rows[0]?.n);

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    t = await createTestApp({ clock, smtpUrl: smtp.url });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('keeps the preferences on the server: every kind off by default, bad values a 422', async () => {
    const none = await t.as(alice).get('/api/profile/notifications');
    expect(none.body.data.notifications).toEqual({
      emi_due: false,
      recurring_due: false,
      budget_crossed: false,
      days_before: 3,
    });
    const before = await eventCount();
    const bad = await t.as(alice).put('/api/profile/notifications', {
      emi_due: 'yes',
      recurring_due: true,
      days_before: 45,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['emi_due', 'days_before']);
    expect(await eventCount()).toBe(before);
    const set = await t.as(alice).put('/api/profile/notifications', {
      emi_due: true,
      recurring_due: true,
      days_before: 3,
    });
    expect(set.status).toBe(200);
    expect((await t.as(alice).get('/api/profile/notifications')).body.data.notifications).toEqual({
      emi_due: true,
      recurring_due: true,
      budget_crossed: false,
      days_before: 3,
    });
  });

  it('mails an unpaid EMI and a recurring occurrence once each; a paid EMI is not reminded', async () => {
    const paidLoan = await t.as(alice).post('/api/loans', loanInput({ account_number: 'HL00011111' }));
    const openLoan = await t.as(alice).post('/api/loans', loanInput({ account_number: 'HL00022222' }));
    expect([paidLoan.status, openLoan.status]).toEqual([201, 201]);
    const { rows } = await t.platform.db.query<{ n: number; due: string }>(
      `SELECT payment_number AS n, to_char(emi_date, 'YYYY-MM-DD') AS due FROM loan_schedule_rows
        WHERE loan_id = $1 AND kind = 'emi' AND emi_date > '2026-03-01' ORDER BY emi_date LIMIT 1`,
      [paidLoan.body.data.loan.id],
    );
    const emi = rows[0];
    if (!emi) throw new Error('no EMI after March 2026');
    // Two days before the EMI, India time.
    const day = new Date(`${emi.due}T09:30:00+05:30`);
    clock.set(new Date(day.getTime() - 2 * 86_400_000).toISOString());
    // Paid ahead of its date (today, India), so the paid-EMI model counts it paid.
    const today = new Date(day.getTime() - 2 * 86_400_000).toISOString().slice(0, 10);
    const paid = await t.as(alice).post(`/api/loans/${paidLoan.body.data.loan.id}/emis/${emi.n}/payment`, {
      paid_on: today,
    });
    expect(paid.status).toBe(201);
    const sip = await t.as(alice).post('/api/recurring', {
      transaction_type: 'D',
      amount: '5000',
      notes: 'SIP',
      payee: 'Index fund',
      frequency: 'monthly',
      day_of_month: Number(emi.due.slice(8, 10)),
      start_date: emi.due,
    });
    expect(sip.status).toBe(201);
    await t.caughtUp(['schedules', 'recurring', 'notifications']);
    await scan();
    const [y, m, d] = emi.due.split('-');
    const sipMail = await smtp.waitForMail(
      (mail) => mail.subject === `Reminder: SIP (Index fund) due on ${d}/${m}/${y}`,
    );
    const emiMail = await smtp.waitForMail((mail) => mail.subject.startsWith(`Reminder: EMI ${emi.n} of `));
    expect(emiMail.subject).toContain('HL00022222');
    expect(emiMail.text).toContain('to pay');
    expect(sipMail.headerLines).toEqual(
      expect.arrayContaining([expect.stringMatching(/^list-unsubscribe-post: List-Unsubscribe=One-Click$/i)]),
    );
    // Scans again and again (and the same reminder queued again) mail nothing more.
    await scan();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await scan();
    await waitUntil(async () => (await t.platform.queue.depth()) === 0);
    const reminders = smtp.received.filter((mail) => mail.subject.startsWith('Reminder:'));
    expect(reminders.map((mail) => mail.subject).sort()).toEqual([emiMail.subject, sipMail.subject].sort());
  });

  it('unsubscribes with the mailed link, without signing in, once', async () => {
    const mail = smtp.received.find((m) => m.subject.startsWith('Reminder: SIP'));
    const link = mail?.text.split(/\s+/).find((word) => word.includes('/api/unsubscribe?token='));
    if (!link) throw new Error('no unsubscribe link');
    const url = new URL(link);
    const path = `${url.pathname}${url.search}`;
    // GET asks to confirm and changes nothing (mail scanners follow links).
    const page = await t.anonymous.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Stop mailing Recurring entry due reminders?');
    expect((await t.as(alice).get('/api/profile/notifications')).body.data.notifications.recurring_due).toBe(
      true,
    );
    // RFC 8058: the mail client's one-click POST.
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const done = await t.anonymous.send('POST', path, 'List-Unsubscribe=One-Click', { headers: form });
    expect(done.status).toBe(200);
    expect(done.text).toContain('You will no longer get Recurring entry due reminders by mail.');
    expect((await t.as(alice).get('/api/profile/notifications')).body.data.notifications).toEqual({
      emi_due: true,
      recurring_due: false,
      budget_crossed: false,
      days_before: 3,
    });
    // Once: the same link again, and a forged one, get the same page that tells nothing.
    const again = await t.anonymous.send('POST', path, 'List-Unsubscribe=One-Click', { headers: form });
    expect(again.status).toBe(400);
    expect(again.text).toContain(UNSUBSCRIBE_INVALID);
    const forged = await t.anonymous.send('POST', `${path.slice(0, -3)}AAA`, '', { headers: form });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain(UNSUBSCRIBE_INVALID);
    await t
      .as(alice)
      .put('/api/profile/notifications', { emi_due: true, recurring_due: true, days_before: 3 });
    const reused = await t.anonymous.send('POST', path, 'List-Unsubscribe=One-Click', { headers: form });
    expect(reused.status).toBe(400);
    await t.caughtUp(['history']);
    const history = await t.as(alice).get('/api/history?stream=notifications');
    expect(history.body.data.entries.map((e: { summary: string }) => e.summary)).toEqual([
      'Reminder preferences changed',
      'Unsubscribed from Recurring entry due reminders by mail link',
      'Reminder preferences changed',
    ]);
  });

  it('alerts once a month when a budget is crossed, if asked', async () => {
    const today = clock().toISOString().slice(0, 10);
    const categories = (await t.as(alice).get('/api/categories')).body.data.categories as {
      id: string;
      name: string;
    }[];
    const groceries = categories.find((c) => c.name === 'Groceries')?.id;
    const budget = await t.as(alice).post('/api/budgets', { category_id: groceries, amount: '1000' });
    expect(budget.status).toBe(201);
    const spend = (amount: string) =>
      t.as(alice).post('/api/transactions', {
        notes: 'Vegetables',
        transaction_type: 'D',
        transaction_date: today,
        amount,
        category_id: groceries,
      });
    expect((await spend('1200')).status).toBe(201);
    await t.caughtUp(['budgets', 'transactions', 'notifications']);
    await scan();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Off until opted into.
    expect(smtp.received.filter((m) => m.subject.startsWith('Budget crossed'))).toEqual([]);
    await t.as(alice).put('/api/profile/notifications', {
      emi_due: true,
      recurring_due: true,
      budget_crossed: true,
      days_before: 3,
    });
    await scan();
    const alert = await smtp.waitForMail((m) => m.subject === 'Budget crossed: Groceries');
    expect(alert.text).toContain('₹200.00 over its budget of ₹1,000.00');
    // More spending the same month: still the one alert.
    expect((await spend('300')).status).toBe(201);
    await t.caughtUp(['transactions']);
    await scan();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await scan();
    await waitUntil(async () => (await t.platform.queue.depth()) === 0);
    expect(smtp.received.filter((m) => m.subject.startsWith('Budget crossed'))).toHaveLength(1);
  });
});
