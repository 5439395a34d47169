import { randomUUID } from 'node:crypto';
import { AUDIT_GRANT_MESSAGES, verifyExport } from '@kosh/domain';
import { listOutbox } from '@kosh/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeExportCrypto } from '../../history/verify-export';
import { testClock } from '../../testing/clock';
import { userFixture } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { waitUntil } from '../../testing/wait-until';

/** Issue 14 item 5, in both shapes: PostgreSQL (in-process queue) and embedded (PGlite). */
describe.each(['postgres', 'embedded'] as const)('auditor access (%s)', (mode) => {
  const clock = testClock('2026-03-01T06:00:00.000Z');
  let t: TestApp;
  const owner = randomUUID();
  const auditor = randomUUID();
  const otherAuditor = randomUUID();
  const stranger = randomUUID();
  const emailOf = (userId: string) => userFixture(userId).email;

  beforeAll(async () => {
    t = await createTestApp({ mode, clock });
  });
  afterAll(async () => {
    await t?.close();
  });

  const onOwnersAccount = { headers: { 'x-kosh-account': owner } };
  const grant = (payload: object, by = owner) => t.as(by).post('/api/audit-grants', payload);
  const asAuditor = (url: string, who = auditor) => t.as(who).get(url, onOwnersAccount);
  const ownerEventTypes = async () => {
    const { rows } = await t.platform.db.query<{ type: string }>(
      "SELECT type FROM events WHERE stream_id LIKE 'audit-%'",
    );
    return rows.map((r) => r.type);
  };
  const timeline = async (type: string) =>
    waitUntil(async () => {
      const res = await t.as(owner).get(`/api/history?type=${type}&limit=100`);
      return (
        res.body.data.entries.length > 0 && (res.body.data.entries as { summary: string; stream: string }[])
      );
    });

  let grantId = '';
  let firstAt = '';

  it('refuses bad grants with per-field messages and records nothing', async () => {
    const cases: [object, string, string][] = [
      [{ expires_at: '2026-04-01' }, 'email', AUDIT_GRANT_MESSAGES.emailRequired],
      [{ email: 'ca@', expires_at: '2026-04-01' }, 'email', AUDIT_GRANT_MESSAGES.emailInvalid],
      [{ email: emailOf(owner), expires_at: '2026-04-01' }, 'email', AUDIT_GRANT_MESSAGES.emailOwn],
      [{ email: 'ca@example.in' }, 'expires_at', AUDIT_GRANT_MESSAGES.expiresAtRequired],
      [
        { email: 'ca@example.in', expires_at: '31/03/2026' },
        'expires_at',
        AUDIT_GRANT_MESSAGES.expiresAtInvalid,
      ],
      [
        { email: 'ca@example.in', expires_at: '2026-02-28' },
        'expires_at',
        AUDIT_GRANT_MESSAGES.expiresAtPast,
      ],
      [
        { email: 'ca@example.in', expires_at: '2028-01-01' },
        'expires_at',
        AUDIT_GRANT_MESSAGES.expiresAtTooFar,
      ],
      [
        { email: 'ca@example.in', expires_at: '2026-04-01', as_of_limit: '2026-02-30' },
        'as_of_limit',
        AUDIT_GRANT_MESSAGES.asOfLimitInvalid,
      ],
    ];
    for (const [payload, field, message] of cases) {
      const res = await grant(payload);
      expect(res.status, JSON.stringify(payload)).toBe(422);
      expect(res.body.errors).toEqual([{ field, message }]);
    }
    const wrongType = await grant({ email: 42, expires_at: '2026-04-01' });
    expect(wrongType.status).toBe(422);
    expect(await ownerEventTypes()).toEqual([]);
  });

  it('grants access, mails the auditor, and answers alike for an address without an account', async () => {
    clock.advance(60_000);
    const recorded = await t.as(owner).post('/api/transactions', {
      notes: 'Rent',
      transaction_type: 'D',
      transaction_date: '2026-03-01',
      amount: 25000,
    });
    expect(recorded.status).toBe(201);
    firstAt = clock().toISOString();
    clock.advance(60_000);
    await t.as(owner).post('/api/transactions', {
      notes: 'Salary',
      transaction_type: 'C',
      transaction_date: '2026-03-01',
      amount: 90000,
    });

    const res = await grant({ email: ` ${emailOf(auditor).toUpperCase()} `, expires_at: '2026-03-31' });
    expect(res.status).toBe(201);
    grantId = res.body.data.grant.id;
    expect(res.body.data.grant).toMatchObject({
      email: emailOf(auditor),
      expires_at: '2026-03-31T18:29:59.999Z',
      as_of_limit: null,
      revoked_at: null,
      status: 'active',
    });
    const nobody = await grant({ email: 'nobody@example.in', expires_at: '2026-03-31' });
    expect(nobody.status).toBe(201);
    expect(Object.keys(nobody.body.data.grant).sort()).toEqual(Object.keys(res.body.data.grant).sort());
    expect(nobody.body.message).toBe(res.body.message.replace(emailOf(auditor), 'nobody@example.in'));

    const mails = await waitUntil(async () => {
      const found = (await listOutbox(t.platform.db)).filter((m) => m.to === emailOf(auditor));
      return found.length > 0 && found;
    });
    expect(mails[0]?.subject).toBe('Test User shared their Kosh account with you (read-only)');
    expect(mails[0]?.text).toContain('http://kosh.test/audits');
    expect(mails[0]?.text).toContain('31 March 2026');
  });

  it("lets the auditor read the owner's account, read-only, and records each read", async () => {
    const list = await t.as(auditor).get('/api/audit-grants');
    expect(list.body.data.received).toEqual([
      expect.objectContaining({ id: grantId, owner_user_id: owner, owner_name: 'Test User' }),
    ]);
    expect(list.body.data.granted).toEqual([]);

    const own = await t.as(auditor).get('/api/transactions');
    expect(own.body.data.transactions).toEqual([]);
    const theirs = await asAuditor('/api/transactions');
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.transactions.map((x: { notes: string }) => x.notes).sort()).toEqual([
      'Rent',
      'Salary',
    ]);
    expect((await asAuditor('/api/ledger')).status).toBe(200);
    expect(
      (await asAuditor(`/api/ledger?as_of=${encodeURIComponent(firstAt)}`)).body.data.summary.totalCredit,
    ).toBe(0);

    for (const [method, url] of [
      ['POST', '/api/transactions'],
      ['PUT', `/api/transactions/${theirs.body.data.transactions[0].id}`],
      ['DELETE', `/api/transactions/${theirs.body.data.transactions[0].id}`],
      ['POST', '/api/audit-grants'],
      ['DELETE', `/api/audit-grants/${grantId}`],
    ] as const) {
      const write = await t
        .as(auditor)
        .send(
          method,
          url,
          { notes: 'x', transaction_type: 'C', transaction_date: '2026-03-01', amount: 1 },
          onOwnersAccount,
        );
      expect(write.status, `${method} ${url}`).toBe(403);
      expect(write.body).toMatchObject({
        success: false,
        errorCode: 'READ_ONLY',
        message: 'Auditor access is read-only',
      });
    }
    expect((await asAuditor('/api/auth/profile')).status).toBe(403);
    expect((await asAuditor('/api/audit-grants')).status).toBe(403);
    expect((await t.as(owner).get('/api/transactions')).body.data.transactions).toHaveLength(2);

    // The visit (transactions, this month's ledger, an earlier view of it) is one entry in words.
    const reads = await waitUntil(async () => {
      const entries = await timeline('AuditReadRecorded');
      expect(entries.map((e) => e.summary)).toEqual([
        'Test User viewed the ledger for Mar 2026 and the transaction book',
      ]);
      return entries;
    });
    expect(reads.every((e) => e.stream === `audit:${grantId}-reads`)).toBe(true);
    const page = await t.as(owner).get('/api/history?limit=2');
    expect(page.body.data.entries.map((e: { type: string }) => e.type)).toEqual([
      'AuditReadRecorded',
      'AuditAccessGranted',
    ]);
    // Later, another visit: a second entry, and paging goes past each visit whole.
    clock.advance(2 * 60 * 60 * 1000);
    expect((await asAuditor('/api/loans')).status).toBe(200);
    const first = await waitUntil(async () => {
      const answer = await t.as(owner).get('/api/history?limit=1');
      expect(answer.body.data.entries.map((e: { summary: string }) => e.summary)).toEqual([
        'Test User viewed the loan list',
      ]);
      return answer;
    });
    const second = await t.as(owner).get(`/api/history?limit=1&cursor=${first.body.data.next_cursor}`);
    expect(second.body.data.entries.map((e: { summary: string }) => e.summary)).toEqual([
      'Test User viewed the ledger for Mar 2026 and the transaction book',
    ]);
    expect((await timeline('AuditAccessGranted')).map((e) => e.summary)).toContain(
      `Auditor access granted to ${emailOf(auditor)}`,
    );
  });

  it("exports the owner's history to the auditor, verifiable with the reads in the chain", async () => {
    await timeline('AuditReadRecorded');
    const key = (await t.as(owner).get('/api/export/public-key')).body.data.public_key;
    const exported = await t.as(auditor).get('/api/export/history', onOwnersAccount);
    expect(exported.status).toBe(200);
    expect(exported.text).toContain('AuditReadRecorded');
    expect(await verifyExport(exported.text, nodeExportCrypto, key)).toMatchObject({ ok: true });
  });

  it('keeps accounts and grants apart both ways', async () => {
    const denied = {
      success: false,
      errorCode: 'NO_ACCOUNT_ACCESS',
      message: 'You do not have access to this account',
    };
    expect((await t.as(stranger).get('/api/transactions', onOwnersAccount)).body).toMatchObject(denied);
    expect((await t.as(stranger).get('/api/transactions', onOwnersAccount)).status).toBe(403);
    // The auditor cannot reach anyone else, nor an account that does not exist: the same answer.
    await t.as(stranger).post('/api/transactions', {
      notes: 'Mine',
      transaction_type: 'C',
      transaction_date: '2026-03-01',
      amount: 5,
    });
    for (const account of [stranger, randomUUID(), 'not-a-user']) {
      const res = await t.as(auditor).get('/api/transactions', { headers: { 'x-kosh-account': account } });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject(denied);
    }
    // Another auditor of the same owner sees only their own grant.
    const second = await grant({ email: emailOf(otherAuditor), expires_at: '2026-03-20' });
    const mine = await t.as(otherAuditor).get('/api/audit-grants');
    expect(mine.body.data.received.map((g: { id: string }) => g.id)).toEqual([second.body.data.grant.id]);
    expect(JSON.stringify(mine.body)).not.toContain(emailOf(auditor));
    // Nobody but the owner revokes; the auditor's own list of grants given is empty.
    expect((await t.as(otherAuditor).delete(`/api/audit-grants/${grantId}`)).status).toBe(404);
    expect((await t.as(auditor).delete(`/api/audit-grants/${grantId}`)).status).toBe(404);
    expect((await t.as(owner).delete('/api/audit-grants/not-a-uuid')).status).toBe(404);
    // The owner lists every grant they gave.
    const given = await t.as(owner).get('/api/audit-grants');
    expect(given.body.data.granted).toHaveLength(3);
    expect(given.body.data.received).toEqual([]);
  });

  it("caps an auditor's view at the grant's as-of limit", async () => {
    const limited = randomUUID();
    const res = await grant({ email: emailOf(limited), expires_at: '2026-03-31', as_of_limit: firstAt });
    expect(res.body.data.grant.as_of_limit).toBe(firstAt);
    // The owner's live month is in the answer cache now: a capped read must not be served from it.
    const live = await t.as(owner).get('/api/ledger');
    expect(live.body.data.summary.totalCredit).toBeGreaterThan(0);
    const ledger = await asAuditor('/api/ledger', limited);
    expect(ledger.status).toBe(200);
    expect(ledger.body.data.summary).toMatchObject({ totalDebit: 25000, totalCredit: 0 });
    const later = await asAuditor(
      `/api/transactions?as_of=${encodeURIComponent(clock().toISOString())}`,
      limited,
    );
    expect(later.body.data.transactions.map((x: { notes: string }) => x.notes)).toEqual(['Rent']);
    const history = await asAuditor('/api/history?limit=100', limited);
    expect(history.status).toBe(200);
    expect(history.body.data.entries.every((e: { recorded_at: string }) => e.recorded_at <= firstAt)).toBe(
      true,
    );
    expect(history.body.data.entries.map((e: { type: string }) => e.type)).toContain('TransactionRecorded');
    // What only the present can answer is closed to a limited grant.
    expect((await asAuditor('/api/export/history', limited)).status).toBe(403);
  });

  it('ends access when the grant expires (stepping the clock) and when it is revoked', async () => {
    clock.set('2026-03-20T18:30:00.000Z');
    expect((await asAuditor('/api/ledger', otherAuditor)).status).toBe(403);
    expect((await t.as(otherAuditor).get('/api/audit-grants')).body.data.received).toEqual([]);
    expect((await asAuditor('/api/ledger')).status).toBe(200);

    const revoked = await t.as(owner).delete(`/api/audit-grants/${grantId}`);
    expect(revoked.status).toBe(200);
    const after = await asAuditor('/api/ledger');
    expect(after.status).toBe(403);
    expect(after.body.errorCode).toBe('NO_ACCOUNT_ACCESS');
    const given = await t.as(owner).get('/api/audit-grants');
    const statuses = Object.fromEntries(
      given.body.data.granted.map((g: { email: string; status: string }) => [g.email, g.status]),
    );
    expect(statuses).toMatchObject({ [emailOf(auditor)]: 'revoked', [emailOf(otherAuditor)]: 'expired' });
    expect((await timeline('AuditAccessRevoked')).map((e) => e.summary)).toEqual(['Auditor access revoked']);
    // Revoking twice changes nothing.
    expect((await t.as(owner).delete(`/api/audit-grants/${grantId}`)).status).toBe(200);
    expect((await ownerEventTypes()).filter((type) => type === 'AuditAccessRevoked')).toHaveLength(1);
  });
});
