import { createHash } from 'node:crypto';
import { addDays, calendarDateOf, isReminderKind, REMINDER_KINDS, type ReminderKind } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { getNotificationPreferences, reminderSubscribers } from '@kosh/projections';
import type { Mailer } from '../mail/mailer';
import { deliverOnce } from '../mail/reactor';
import { reminderMail } from '../mail/templates';
import type { JobQueue } from '../queue/port';
import { type DueReminder, flagOf, REMINDER_SOURCES } from './sources';

export const REMINDER_SCAN_JOB = 'reminders:scan';
export const REMINDER_SEND_JOB = 'reminders:send';
/** How often what is due is looked for: a reminder goes out within this of its day coming. */
export const REMINDER_SCAN_EVERY_MS = 60 * 60 * 1000;

export type ReminderJob = Readonly<{
  /** (user, kind, subject, due date): the mail is sent once per key (`mail_deliveries`). */
  key: string;
  userId: string;
  to: string;
  firstName: string | null;
  reminder: DueReminder;
}>;

export type ReminderDeps = {
  db: Queryable;
  mailer: Mailer;
  queue: JobQueue;
  clock: () => Date;
  /** The signed one-click unsubscribe link of a reminder (platform/src/unsubscribe-token.ts). */
  unsubscribeUrl: (claim: { userId: string; kind: ReminderKind; tokenId: string }) => string;
  logger?: { info(obj: object, msg?: string): void };
};

export const reminderKey = (userId: string, r: Pick<DueReminder, 'kind' | 'subject' | 'dueDate'>) =>
  `reminder:${userId}:${r.kind}:${r.subject}:${r.dueDate}`;

/** The unsubscribe token's id: one per mail, the same on every retry of it. */
const tokenIdOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 32);

/**
 * One scan: for every user with a kind of reminder on, what of that kind is due from today to
 * `days_before` days ahead (India dates), each as a `reminders:send` job keyed by the reminder.
 * A reminder found again on the next scan (or by another worker) is the same key: sent once.
 */
export async function scanReminders(deps: ReminderDeps): Promise<number> {
  const today = calendarDateOf(deps.clock());
  let queued = 0;
  for (const user of await reminderSubscribers(deps.db)) {
    const to = addDays(today, user.daysBefore);
    for (const source of REMINDER_SOURCES) {
      if (!user[flagOf(source.kind)]) continue;
      for (const reminder of await source.due(deps.db, user.userId, today, to, today)) {
        const key = reminderKey(user.userId, reminder);
        const job: ReminderJob = {
          key,
          userId: user.userId,
          to: user.email,
          firstName: user.firstName,
          reminder,
        };
        await deps.queue.enqueue(REMINDER_SEND_JOB, job, { jobId: key, attempts: 8, backoffMs: 1000 });
        queued++;
      }
    }
  }
  return queued;
}

/** Mails one reminder once, unless its kind was turned off (or it went past due) meanwhile. */
export async function sendReminderJob(job: ReminderJob, deps: ReminderDeps): Promise<boolean> {
  const { reminder } = job;
  if (!isReminderKind(reminder.kind)) return false;
  if (reminder.dueDate < calendarDateOf(deps.clock())) return false;
  const preferences = await getNotificationPreferences(deps.db, job.userId);
  if (!preferences[flagOf(reminder.kind)]) return false;
  const sent = await deliverOnce(deps, job.key, `reminder:${reminder.kind}`, async () => {
    const link = deps.unsubscribeUrl({
      userId: job.userId,
      kind: reminder.kind,
      tokenId: tokenIdOf(job.key),
    });
    await deps.mailer.send(
      reminderMail({
        to: job.to,
        firstName: job.firstName,
        reminder,
        kindLabel: REMINDER_KINDS[reminder.kind].label,
        unsubscribeUrl: link,
      }),
    );
  });
  if (sent) deps.logger?.info({ kind: reminder.kind, key: job.key }, 'reminder sent');
  return sent;
}

export async function registerReminderJobs(
  queue: JobQueue,
  deps: ReminderDeps,
  options: { everyMs?: number } = {},
): Promise<void> {
  queue.process(REMINDER_SCAN_JOB, async () => {
    await scanReminders(deps);
  });
  queue.process(REMINDER_SEND_JOB, async (data) => {
    await sendReminderJob(data as ReminderJob, deps);
  });
  await queue.schedule(REMINDER_SCAN_JOB, options.everyMs ?? REMINDER_SCAN_EVERY_MS);
}
