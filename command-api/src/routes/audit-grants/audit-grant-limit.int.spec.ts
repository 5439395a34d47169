import { randomUUID } from 'node:crypto';
import { listOutbox } from '@kosh/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { AUDIT_GRANT_LIMIT } from '../auth/limits';

/** Granting mails the auditor: one user may grant only AUDIT_GRANT_LIMIT.max times an hour. */
describe('audit grant rate limit', () => {
  let t: TestApp;
  const owner = randomUUID();
  const neighbour = randomUUID();

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const grant = async (userId: string, i: number) =>
    t.app.inject({
      method: 'POST',
      url: '/api/audit-grants',
      headers: await t.signedInHeader(userId),
      payload: { email: `ca.${i}@example.in`, expires_at: inAMonth },
    });

  it('answers 429 with the spec message past the limit, records and mails nothing more, per user', async () => {
    for (let i = 0; i < AUDIT_GRANT_LIMIT.max; i++) expect((await grant(owner, i)).statusCode).toBe(201);
    const limited = await grant(owner, -1);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      success: false,
      message: 'Too many requests. Please try again later.',
    });
    expect(limited.headers['retry-after']).toBeDefined();
    const { rows } = await t.platform.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM events WHERE type = 'AuditAccessGranted'",
    );
    expect(rows[0]?.n).toBe(AUDIT_GRANT_LIMIT.max);
    const outbox = await listOutbox(t.platform.db);
    expect(outbox.filter((m) => m.to === 'ca.-1@example.in')).toEqual([]);
    // Another user (from the same client address) is still served.
    expect((await grant(neighbour, 0)).statusCode).toBe(201);
  });
});
