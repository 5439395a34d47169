/** @kosh/workers: what the other packages import from it. */

export {
  type ErasureDeps,
  type ErasureOutcome,
  eraseAccount,
  eraseDueAccounts,
  registerErasureJobs,
  subjectHashOf,
} from './erasure/erase';
export { createOutboxMailer, createSmtpMailer, listOutbox, type Mailer, mailMigrations } from './mail/mailer';
export { createMailReactor, deliverOnce, registerMailJobs } from './mail/reactor';
export { registerProjectionJobs } from './projection-jobs';
export { createBullMqQueue } from './queue/bullmq';
export { createInProcessQueue } from './queue/in-process';
export type { JobQueue } from './queue/port';
export {
  createRecurringReactor,
  postDueOccurrences,
  postEntryOccurrences,
  RECURRING_CATCH_UP_DAYS,
  RECURRING_POST_JOB,
  recurringTransactionId,
  registerRecurringJobs,
} from './recurring/poster';
export {
  REMINDER_SCAN_JOB,
  type ReminderJob,
  registerReminderJobs,
  reminderKey,
  scanReminders,
  sendReminderJob,
} from './reminders/reminders';
