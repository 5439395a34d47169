import type { EmailVerificationRequested, PasswordResetRequested, RecordedEvent } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store/db';
import type { Projection } from '@kosh/projections/runner/types';
import type { JobQueue } from '../queue/port';
import type { Mailer } from './mailer';
import { passwordResetMail, verificationMail } from './templates';
import { openToken } from './token-seal';

export const MAIL_JOB = 'mail:send';

export type MailJob = Readonly<{
  /** The event that asked for the mail: its id is the mail's identity. */
  eventId: string;
  kind: 'verify-email' | 'reset-password';
  to: string;
  /** The token sealed by the API (see token-seal.ts), opened only when the mail is rendered. */
  sealedToken: string;
  expiresAt: string;
}>;

/** Job id derived from the event id: a replayed event finds its job still waiting and adds none. */
export const mailJobId = (eventId: string) => `mail-${eventId}`;

type MailEvent = RecordedEvent<EmailVerificationRequested | PasswordResetRequested>;

/**
 * A consumer of the log run by the projection runner like a read model (own checkpoint, batches,
 * retries), whose effect is one `mail:send` job per event that asks for a mail. It owns no tables.
 * Links already expired are not mailed (a replay of old events stays silent).
 */
export function createMailReactor(deps: { queue: JobQueue; clock: () => Date }): Projection {
  return {
    name: 'mail',
    handles: ['EmailVerificationRequested', 'PasswordResetRequested'],
    tables: [],
    async apply(_tx, events) {
      for (const event of events) {
        if (event.type !== 'EmailVerificationRequested' && event.type !== 'PasswordResetRequested') continue;
        const { id, type, data } = event as MailEvent;
        if (Date.parse(data.expiresAt) <= deps.clock().getTime()) continue;
        const job: MailJob = {
          eventId: id,
          kind: type === 'EmailVerificationRequested' ? 'verify-email' : 'reset-password',
          to: data.email,
          sealedToken: data.sealedToken,
          expiresAt: data.expiresAt,
        };
        await deps.queue.enqueue(MAIL_JOB, job, { jobId: mailJobId(id), attempts: 5, backoffMs: 1000 });
      }
    },
  };
}

export type MailProcessorDeps = {
  db: Queryable;
  mailer: Mailer;
  appUrl: string;
  /** The secret the API sealed tokens with (JWT_SECRET). */
  secret: string;
  clock: () => Date;
};

/**
 * Renders and sends one mail. The event id is claimed in `mail_deliveries` first, so a job that
 * runs twice (replay, redelivery) sends once; a failed send releases the claim for the retry.
 */
export async function sendMailJob(job: MailJob, deps: MailProcessorDeps): Promise<void> {
  if (Date.parse(job.expiresAt) <= deps.clock().getTime()) return;
  const claimed = await deps.db.query(
    'INSERT INTO mail_deliveries (event_id, kind) VALUES ($1, $2) ON CONFLICT (event_id) DO NOTHING RETURNING event_id',
    [job.eventId, job.kind],
  );
  if (claimed.rows.length === 0) return;
  try {
    const token = openToken(job.sealedToken, deps.secret);
    const input = { appUrl: deps.appUrl, to: job.to, token };
    await deps.mailer.send(job.kind === 'verify-email' ? verificationMail(input) : passwordResetMail(input));
  } catch (error) {
    await deps.db.query('DELETE FROM mail_deliveries WHERE event_id = $1', [job.eventId]);
    throw error;
  }
}

export function registerMailJobs(queue: JobQueue, deps: MailProcessorDeps): void {
  queue.process(MAIL_JOB, async (data) => sendMailJob(data as MailJob, deps));
}
