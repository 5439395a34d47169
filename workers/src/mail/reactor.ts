import type {
  AccountErasureCancelled,
  AccountErasureRequested,
  AuditAccessGranted,
  EmailChangeRequested,
  EmailClaimAttempted,
  EmailVerificationRequested,
  PasswordResetRequested,
  RecordedEvent,
  SessionStarted,
  TwoFactorReset,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import type { Projection } from '@kosh/projections';
import type { JobQueue } from '../queue/port';
import type { Mail, Mailer } from './mailer';
import {
  auditGrantMail,
  claimNoticeMail,
  emailChangeMail,
  erasureCancelledMail,
  erasureScheduledMail,
  newSignInMail,
  passwordResetMail,
  twoFactorResetMail,
  verificationMail,
} from './templates';

export const MAIL_JOB = 'mail:send';

export type MailKind =
  | 'verify-email'
  | 'reset-password'
  | 'confirm-email-change'
  | 'email-claim-notice'
  | 'audit-grant'
  | 'erasure-scheduled'
  | 'erasure-cancelled'
  | 'new-sign-in'
  | 'two-factor-reset';

export type MailJob = Readonly<{
  /** The event that asked for the mail: its id is the mail's identity. */
  eventId: string;
  kind: MailKind;
  to: string;
  /** The link token sealed by the API (platform/src/token-seal.ts), opened only when the mail is rendered. */
  sealedToken: string | null;
  /** After this the mail is pointless (its link is dead, or the news is old): it is not sent. */
  expiresAt: string;
  /** Global position of the event: a link is mailed once the users read model can check it. */
  position?: string;
  /** Claim notices: how the address was tried. */
  via?: 'register' | 'profile';
  /** Audit grants: who shared their account, and until when (`expiresAt`). */
  ownerName?: string;
  /** Erasure: when the account goes. */
  eraseAfter?: string;
  /** Erasure cancelled: how. */
  cancelledVia?: 'restore' | 'sign-in';
  /** New sign-ins: the client, and when. */
  signIn?: { browser: string; os: string; address: string; at: string };
  /** Of the request that asked for the mail, so its logs line up with the request's. */
  correlationId?: string | null;
}>;

/** Job id derived from the event id: a replayed event finds its job still waiting and adds none. */
export const mailJobId = (eventId: string) => `mail-${eventId}`;

/** A notice that someone tried to claim an address is worth sending for a day. */
const NOTICE_TTL_MS = 24 * 60 * 60 * 1000;

const MAIL_EVENTS = [
  'EmailVerificationRequested',
  'PasswordResetRequested',
  'EmailChangeRequested',
  'EmailClaimAttempted',
  'AuditAccessGranted',
  'AccountErasureRequested',
  'AccountErasureCancelled',
  'SessionStarted',
  'TwoFactorReset',
] as const;

type MailEvent = RecordedEvent<
  | EmailVerificationRequested
  | PasswordResetRequested
  | EmailChangeRequested
  | EmailClaimAttempted
  | AuditAccessGranted
  | AccountErasureRequested
  | AccountErasureCancelled
  | SessionStarted
  | TwoFactorReset
>;

function jobOf(event: MailEvent): MailJob {
  const base = { eventId: event.id, to: event.data.email, position: event.position };
  switch (event.type) {
    case 'EmailVerificationRequested':
    case 'PasswordResetRequested':
    case 'EmailChangeRequested': {
      const kind: Record<typeof event.type, MailKind> = {
        EmailVerificationRequested: 'verify-email',
        PasswordResetRequested: 'reset-password',
        EmailChangeRequested: 'confirm-email-change',
      };
      const { sealedToken, expiresAt } = event.data;
      return { ...base, kind: kind[event.type], sealedToken, expiresAt };
    }
    case 'EmailClaimAttempted': {
      const expiresAt = new Date(Date.parse(event.data.attemptedAt) + NOTICE_TTL_MS).toISOString();
      return { ...base, kind: 'email-claim-notice', sealedToken: null, expiresAt, via: event.data.via };
    }
    case 'AuditAccessGranted': {
      const { expiresAt, ownerName } = event.data;
      return { ...base, kind: 'audit-grant', sealedToken: null, expiresAt, ownerName };
    }
    case 'AccountErasureRequested': {
      const { eraseAfter } = event.data;
      return { ...base, kind: 'erasure-scheduled', sealedToken: null, expiresAt: eraseAfter, eraseAfter };
    }
    case 'AccountErasureCancelled': {
      const expiresAt = new Date(Date.parse(event.data.cancelledAt) + NOTICE_TTL_MS).toISOString();
      return {
        ...base,
        kind: 'erasure-cancelled',
        sealedToken: null,
        expiresAt,
        cancelledVia: event.data.via,
      };
    }
    case 'SessionStarted': {
      const { browser, os, address, startedAt } = event.data;
      const expiresAt = new Date(Date.parse(startedAt) + NOTICE_TTL_MS).toISOString();
      return {
        ...base,
        kind: 'new-sign-in',
        sealedToken: null,
        expiresAt,
        signIn: { browser, os, address, at: startedAt },
      };
    }
    case 'TwoFactorReset': {
      const expiresAt = new Date(Date.parse(event.data.resetAt) + NOTICE_TTL_MS).toISOString();
      return { ...base, kind: 'two-factor-reset', sealedToken: null, expiresAt };
    }
  }
}

/** Only a sign-in from a browser new to the account asks for a mail. */
const asksForMail = (event: MailEvent) => event.type !== 'SessionStarted' || event.data.newBrowser;

/**
 * A consumer of the log run by the projection runner like a read model (own checkpoint, batches,
 * retries), whose effect is one `mail:send` job per event that asks for a mail. It owns no tables.
 * Mails already pointless are not sent (a replay of old events stays silent).
 */
export function createMailReactor(deps: { queue: JobQueue; clock: () => Date }): Projection {
  const handled = new Set<string>(MAIL_EVENTS);
  return {
    name: 'mail',
    handles: MAIL_EVENTS,
    tables: [],
    async apply(_tx, events) {
      for (const event of events) {
        if (!handled.has(event.type) || !asksForMail(event as MailEvent)) continue;
        const job = { ...jobOf(event as MailEvent), correlationId: event.metadata.correlationId };
        if (Date.parse(job.expiresAt) <= deps.clock().getTime()) continue;
        await deps.queue.enqueue(MAIL_JOB, job, {
          jobId: mailJobId(job.eventId),
          // 1, 2, 4 … 64 s apart: past a lost claim's lease (MAIL_CLAIM_LEASE_MS) and a short outage.
          attempts: 8,
          backoffMs: 1000,
        });
      }
    },
  };
}

export type MailProcessorDeps = {
  db: Queryable;
  mailer: Mailer;
  appUrl: string;
  /** Opens a link token the API sealed (the platform's, keyed from JWT_SECRET). */
  openToken: (sealed: string) => string;
  clock: () => Date;
  /**
   * Resolves once the users read model includes `position`: a link mailed before it could be
   * opened before the API can find its token. Bounded; the mail goes out either way.
   */
  usersCaughtUp?: (position: string) => Promise<unknown>;
  logger?: { info(obj: object, msg?: string): void };
};

function render(job: MailJob, deps: MailProcessorDeps): Mail {
  const base = { appUrl: deps.appUrl, to: job.to };
  const token = () => {
    if (!job.sealedToken) throw new Error(`mail ${job.eventId} (${job.kind}) has no token`);
    return deps.openToken(job.sealedToken);
  };
  switch (job.kind) {
    case 'verify-email':
      return verificationMail({ ...base, token: token() });
    case 'reset-password':
      return passwordResetMail({ ...base, token: token() });
    case 'confirm-email-change':
      return emailChangeMail({ ...base, token: token() });
    case 'email-claim-notice':
      return claimNoticeMail({ ...base, via: job.via ?? 'register' });
    case 'audit-grant':
      return auditGrantMail({ ...base, ownerName: job.ownerName ?? 'A Kosh user', expiresAt: job.expiresAt });
    case 'erasure-scheduled':
      return erasureScheduledMail({ ...base, eraseAfter: job.eraseAfter ?? job.expiresAt });
    case 'erasure-cancelled':
      return erasureCancelledMail({ ...base, via: job.cancelledVia ?? 'restore' });
    case 'new-sign-in': {
      const signIn = job.signIn ?? {
        browser: 'Unknown',
        os: 'Unknown',
        address: 'unknown',
        at: job.expiresAt,
      };
      return newSignInMail({ ...base, ...signIn });
    }
    case 'two-factor-reset':
      return twoFactorResetMail(base);
  }
}

/** How long a claim keeps other runs of the same mail away before a retry may take it over. */
export const MAIL_CLAIM_LEASE_MS = 10_000;

/** A mail another run has claimed and not yet sent: the job fails, so the queue retries it later. */
export class MailClaimedElsewhere extends Error {}

/**
 * Sends one mail at most once per `key` (an event id, or a reminder's (user, kind, subject, due
 * date)): the key is claimed in `mail_deliveries` first, so a job that runs twice (replay,
 * redelivery, two worker processes) sends once. A claim is a lease until the send is recorded: a
 * failed send releases it, and one whose release was lost too (the database cut) is taken over by
 * a retry once `MAIL_CLAIM_LEASE_MS` has passed, so a mail is never dropped as "already sent".
 * A run that finds a fresh claim of another fails and is retried. False: it was sent before.
 */
export async function deliverOnce(
  deps: Pick<MailProcessorDeps, 'db' | 'clock'>,
  key: string,
  kind: string,
  send: () => Promise<void>,
): Promise<boolean> {
  const now = deps.clock();
  const claimed = await deps.db.query<{ sent: boolean; mine: boolean }>(
    `INSERT INTO mail_deliveries AS d (event_id, kind, sent, claimed_at) VALUES ($1, $2, false, $3)
     ON CONFLICT (event_id) DO UPDATE SET claimed_at = EXCLUDED.claimed_at
       WHERE NOT d.sent AND d.claimed_at <= $3::timestamptz - make_interval(secs => $4::double precision / 1000)
     RETURNING sent, true AS mine`,
    [key, kind, now.toISOString(), MAIL_CLAIM_LEASE_MS],
  );
  if (claimed.rows.length === 0) {
    const { rows } = await deps.db.query<{ sent: boolean }>(
      'SELECT sent FROM mail_deliveries WHERE event_id = $1',
      [key],
    );
    if (rows[0]?.sent !== false) return false;
    throw new MailClaimedElsewhere(`mail ${key} is being sent by another run`);
  }
  try {
    await send();
  } catch (error) {
    await deps.db
      .query('DELETE FROM mail_deliveries WHERE event_id = $1 AND NOT sent', [key])
      .catch(() => undefined);
    throw error;
  }
  await deps.db.query('UPDATE mail_deliveries SET sent = true, sent_at = $2 WHERE event_id = $1', [
    key,
    deps.clock().toISOString(),
  ]);
  return true;
}

/** Renders and sends the mail an event asked for, once (`deliverOnce`, keyed by the event id). */
export async function sendMailJob(job: MailJob, deps: MailProcessorDeps): Promise<void> {
  if (Date.parse(job.expiresAt) <= deps.clock().getTime()) return;
  const sent = await deliverOnce(deps, job.eventId, job.kind, async () => {
    if (job.sealedToken && job.position) await deps.usersCaughtUp?.(job.position);
    await deps.mailer.send(render(job, deps));
  });
  if (sent)
    deps.logger?.info(
      { kind: job.kind, eventId: job.eventId, correlationId: job.correlationId },
      'mail sent',
    );
}

export function registerMailJobs(queue: JobQueue, deps: MailProcessorDeps): void {
  queue.process(MAIL_JOB, async (data) => sendMailJob(data as MailJob, deps));
}
