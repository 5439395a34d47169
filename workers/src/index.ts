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
export { createMailReactor, registerMailJobs } from './mail/reactor';
export { registerProjectionJobs } from './projection-jobs';
export { createBullMqQueue } from './queue/bullmq';
export { createInProcessQueue } from './queue/in-process';
export type { JobQueue } from './queue/port';
