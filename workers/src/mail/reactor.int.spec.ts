import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@kosh/domain';
import { eventStoreMigrations, migrate } from '@kosh/event-store';
import { createTestDatabase, type TestDatabase } from '@kosh/event-store/testing';
import { migrationSources } from '@kosh/projections';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInProcessQueue } from '../queue/in-process';
import { createOutboxMailer, listOutbox, mailMigrations } from './mailer';
import {
  createMailReactor,
  MAIL_CLAIM_LEASE_MS,
  MailClaimedElsewhere,
  type MailJob,
  registerMailJobs,
  sendMailJob,
} from './reactor';

/**
 * The platform seals tokens (platform/src/token-seal.ts has its own spec) and hands the reactor
 * the opener; a reversible stand-in keeps the sealed form unlike the token here too.
 */
const sealToken = (token: string) => Buffer.from(token).toString('base64url');
const openToken = (sealed: string) => Buffer.from(sealed, 'base64url').toString('utf8');
const appUrl = 'http://kosh.test';

function resetRequested(email: string, expiresAt: string): RecordedEvent {
  const userId = randomUUID();
  return {
    id: randomUUID(),
    type: 'PasswordResetRequested',
    data: {
      userId,
      email,
      tokenHash: 'h',
      sealedToken: sealToken('raw-token'),
      requestedAt: '',
      expiresAt,
    },
    streamId: `user-${userId}`,
    streamVersion: 3,
    position: '1',
    metadata: { userId, correlationId: 'c', causationId: null, recordedAt: '', schemaVersion: 1 },
  };
}

describe('mail reactor and mail jobs', () => {
  let database: TestDatabase;
  const clock = () => new Date();
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrate(database.db, [eventStoreMigrations, ...migrationSources, mailMigrations]);
  });
  afterAll(async () => {
    await database?.drop();
  });

  const mailsTo = async (email: string) => (await listOutbox(database.db)).filter((m) => m.to === email);

  it('mails once per event, even when the event is delivered again', async () => {
    const queue = createInProcessQueue();
    const deps = { db: database.db, mailer: createOutboxMailer(database.db), appUrl, openToken, clock };
    registerMailJobs(queue, deps);
    const reactor = createMailReactor({ queue, clock });
    const event = resetRequested('once@example.in', inAnHour());

    await reactor.apply(database.db, [event]);
    await reactor.apply(database.db, [event]);
    await vi.waitFor(async () => expect(await mailsTo('once@example.in')).toHaveLength(1), {
      timeout: 10_000,
    });
    await queue.close();

    const job: MailJob = {
      eventId: event.id,
      kind: 'reset-password',
      to: 'once@example.in',
      sealedToken: (event.data as { sealedToken: string }).sealedToken,
      expiresAt: inAnHour(),
    };
    await sendMailJob(job, deps);
    const mails = await mailsTo('once@example.in');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(`${appUrl}/reset-password?token=raw-token`);
  });

  it('does not mail a link that has already expired (a replay of old events stays silent)', async () => {
    const deps = { db: database.db, mailer: createOutboxMailer(database.db), appUrl, openToken, clock };
    const event = resetRequested('late@example.in', new Date(Date.now() - 1000).toISOString());
    const enqueued: unknown[] = [];
    const queue = createInProcessQueue();
    queue.process('mail:send', async (data) => {
      enqueued.push(data);
      await sendMailJob(data as MailJob, deps);
    });
    await createMailReactor({ queue, clock }).apply(database.db, [event]);
    await queue.close();
    expect(enqueued).toHaveLength(0);
    expect(await mailsTo('late@example.in')).toHaveLength(0);
  });

  it('releases its claim when sending fails, so the retry sends', async () => {
    let failures = 1;
    const outbox = createOutboxMailer(database.db);
    const flaky = {
      ...outbox,
      async send(mail: Parameters<typeof outbox.send>[0]) {
        if (failures-- > 0) throw new Error('relay down');
        await outbox.send(mail);
      },
    };
    const deps = { db: database.db, mailer: flaky, appUrl, openToken, clock };
    const job: MailJob = {
      eventId: randomUUID(),
      kind: 'verify-email',
      to: 'retry@example.in',
      sealedToken: sealToken('tok'),
      expiresAt: inAnHour(),
    };
    await expect(sendMailJob(job, deps)).rejects.toThrow('relay down');
    await sendMailJob(job, deps);
    const mails = await mailsTo('retry@example.in');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(`${appUrl}/verify-email?token=tok&email=retry%40example.in`);
  });
  it('takes over a claim whose release was lost with the database, once its lease is past', async () => {
    // The database cut breaks the send's first step and then the release of its claim: the
    // claim stays behind unsent. A retry inside the lease is refused (the queue retries it later),
    // one after it sends, and a run after that sends nothing more.
    let cut = true;
    const db = {
      query: ((text: string, values?: unknown[]) => {
        if (cut && text.startsWith('DELETE')) return Promise.reject(new Error('connection terminated'));
        return database.db.query(text, values);
      }) as typeof database.db.query,
    };
    let now = Date.now();
    const later = () => new Date(now);
    const failing = {
      ...createOutboxMailer(database.db),
      async send() {
        throw new Error('connection terminated');
      },
    };
    const job: MailJob = {
      eventId: randomUUID(),
      kind: 'verify-email',
      to: 'lost-claim@example.in',
      sealedToken: sealToken('tok'),
      expiresAt: inAnHour(),
    };
    await expect(sendMailJob(job, { db, mailer: failing, appUrl, openToken, clock: later })).rejects.toThrow(
      'connection terminated',
    );
    cut = false;
    const deps = { db, mailer: createOutboxMailer(database.db), appUrl, openToken, clock: later };
    await expect(sendMailJob(job, deps)).rejects.toBeInstanceOf(MailClaimedElsewhere);
    expect(await mailsTo('lost-claim@example.in')).toHaveLength(0);

    now += MAIL_CLAIM_LEASE_MS + 1;
    await sendMailJob(job, deps);
    now += MAIL_CLAIM_LEASE_MS + 1;
    await sendMailJob(job, deps);
    expect(await mailsTo('lost-claim@example.in')).toHaveLength(1);
  });
});
