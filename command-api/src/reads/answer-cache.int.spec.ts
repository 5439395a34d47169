import { randomUUID } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildHttpApp, createRuntime, type Runtime } from '@kosh/platform';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../testing/clock';
import { loanInput, userFixture } from '../testing/fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * The live reads (the ledger month and periods, the amortization schedule, the loan list and
 * totals, the transaction page and totals) are served from a cache of their serialised answers,
 * tagged with the read models' checkpoints: an ETag, 304 on If-None-Match, and a write that
 * changes the answer changes the ETag (read-your-writes kept), on both stores.
 */
describe.each([
  ['postgres', '32'],
  ['embedded', '32'],
  // Nothing kept: every read is built, with the same answers, tags and 304s.
  ['postgres', '0'],
] as const)('cached live reads (%s, ANSWER_CACHE_MB=%s)', (mode, cacheMb) => {
  let t: TestApp;
  const clock = testClock('2025-03-20T06:00:00.000Z', { step: 1000 });
  const alice = randomUUID();
  const bob = randomUUID();

  /** A read as the cache is judged: its status, its tag and its bytes. */
  const read = async (userId: string, url: string, headers?: Record<string, string>) => {
    const answer = await t.as(userId).get(url, { headers });
    return { status: answer.status, etag: answer.headers.etag as string, body: answer.text };
  };

  const record = async (userId: string, notes: string, date: string) => {
    const res = await t
      .as(userId)
      .post('/api/transactions', { notes, transaction_type: 'D', transaction_date: date, amount: 250.75 });
    expect(res.status).toBe(201);
    return res.body.data.transaction.id as string;
  };

  beforeAll(async () => {
    t = await createTestApp({ mode, clock, env: { ANSWER_CACHE_MB: cacheMb } });
    await record(alice, 'Rent', '2025-03-05');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ledger month: ETag, 304 while unchanged, a new answer and ETag after a write', async () => {
    const url = '/api/ledger?month=3&year=2025';
    const first = await read(alice, url);
    expect(first.status).toBe(200);
    expect(first.etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await read(alice, url);
    expect(again).toEqual(first);
    expect(
      JSON.parse(again.body).data.debit.transactions.map((e: { particulars: string }) => e.particulars),
    ).toEqual(['Rent']);

    const notModified = await read(alice, url, { 'if-none-match': first.etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.etag).toBe(first.etag);
    // A strong form of the same tag, or one in a list, matches too (weak comparison).
    const strong = first.etag.replace(/^W\//, '');
    expect((await read(alice, url, { 'if-none-match': `"x", ${strong}` })).status).toBe(304);

    // Another month, another user: their own answers, never this one's.
    const april = await read(alice, '/api/ledger?month=4&year=2025', { 'if-none-match': first.etag });
    expect(april.status).toBe(200);
    const bobs = await read(bob, url, { 'if-none-match': first.etag });
    expect(bobs.status).toBe(200);
    expect(JSON.parse(bobs.body).data.debit.transactions).toEqual([]);

    // The write answers after the ledger has it, so the very next read shows it.
    await record(alice, 'Groceries', '2025-03-10');
    const changed = await read(alice, url, { 'if-none-match': first.etag });
    expect(changed.status).toBe(200);
    expect(changed.etag).not.toBe(first.etag);
    const debits = JSON.parse(changed.body).data.debit;
    expect(debits.transactions.map((e: { particulars: string }) => e.particulars)).toEqual([
      'Rent',
      'Groceries',
    ]);
    expect(debits.total).toBe(501.5);

    // Deleting is a write too.
    const id = await record(alice, 'Mistake', '2025-03-11');
    const withMistake = await read(alice, url);
    expect(withMistake.body).toContain('Mistake');
    expect((await t.as(alice).delete(`/api/transactions/${id}`)).status).toBe(200);
    const after = await read(alice, url, { 'if-none-match': withMistake.etag });
    expect(after.status).toBe(200);
    expect(after.body).not.toContain('Mistake');
  });

  it('amortization: ETag, 304 while unchanged, the new version after a regeneration, 404 once deleted', async () => {
    const created = await t
      .as(alice)
      .post('/api/loans', loanInput({ short_detail: null, processing_fee: 0 }));
    expect(created.status, created.text).toBe(201);
    const loanId = created.body.data.loan.id as string;
    const url = `/api/loans/${loanId}/amortization`;

    const first = await read(alice, url);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body).data.summary.version).toBe(1);
    expect(await read(alice, url)).toEqual(first);
    expect((await read(alice, url, { 'if-none-match': first.etag })).status).toBe(304);
    // A large answer is compressed when the client takes it (browsers do): the same answer, the
    // same tag. Kept answers are gzipped once per version; one built for a single request (nothing
    // kept) is brotli where the client takes it (cheaper to make), else gzip.
    const zipped = await t.as(alice).get(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.headers.vary).toContain('Accept-Encoding');
    expect(zipped.headers.etag).toBe(first.etag);
    if (cacheMb === '0') {
      expect(zipped.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(zipped.payload).toString()).toBe(first.body);
    } else {
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(zipped.payload).toString()).toBe(first.body);
    }
    const gzipOnly = await t.as(alice).get(url, { headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gzipOnly.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipOnly.payload).toString()).toBe(first.body);
    const refused = await t.as(alice).get(url, { headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.text).toBe(first.body);
    // Not another user's, whatever the ETag.
    expect((await read(bob, url, { 'if-none-match': first.etag })).status).toBe(404);

    const regenerated = await t.as(alice).post(`${url}/regenerate`);
    expect(regenerated.status).toBe(200);
    const next = await read(alice, url, { 'if-none-match': first.etag });
    expect(next.status).toBe(200);
    expect(next.etag).not.toBe(first.etag);
    expect(JSON.parse(next.body).data.summary.version).toBe(2);

    expect((await t.as(alice).delete(`/api/loans/${loanId}`)).status).toBe(200);
    expect((await read(alice, url, { 'if-none-match': next.etag })).status).toBe(404);
  });

  it('one loan: served again while unchanged, its ETag the loan’s version (If-Match), an edit in the very next read', async () => {
    const answers = async () => {
      const { values } = await t.platform.metrics.answerCache.get();
      const of = (outcome: string) =>
        values.find((v) => v.labels.route === '/api/loans/:id' && v.labels.outcome === outcome)?.value ?? 0;
      return { hit: of('hit'), miss: of('miss') };
    };
    const created = await t.as(alice).post('/api/loans', loanInput({ account_number: 'CACHE0001' }));
    expect(created.status, created.text).toBe(201);
    const loanId = created.body.data.loan.id as string;
    const url = `/api/loans/${loanId}`;

    const before = await answers();
    const first = await read(alice, url);
    expect(first.status).toBe(200);
    expect(first.etag).toBe(created.headers.etag);
    expect(await read(alice, url)).toEqual(first);
    const after = await answers();
    // Built once and then served again; with nothing kept, built each time.
    if (cacheMb === '0') expect(after).toEqual({ hit: before.hit, miss: before.miss + 2 });
    else expect(after).toEqual({ hit: before.hit + 1, miss: before.miss + 1 });
    // Its ETag names the loan's version, not this answer: no 304 for it.
    expect((await read(alice, url, { 'if-none-match': first.etag })).status).toBe(200);
    expect((await read(bob, url)).status).toBe(404);

    const edited = await t
      .as(alice)
      .put(url, loanInput({ account_number: 'CACHE0002' }), { headers: { 'if-match': first.etag } });
    expect(edited.status, edited.text).toBe(200);
    const next = await read(alice, url);
    expect(JSON.parse(next.body).data.loan.account_number).toBe('CACHE0002');
    expect(next.etag).toBe(edited.headers.etag);
    expect(next.etag).not.toBe(first.etag);
    // A past version is a replay, without an ETag to send back.
    const past = await t.as(alice).get(`${url}?as_of=${encodeURIComponent(clock().toISOString())}`);
    expect(past.status, past.text).toBe(200);
    expect(past.headers.etag).toBeUndefined();
  });

  it('lists and totals: ETag, 304 while unchanged, each user their own, a write shows in the very next read', async () => {
    const urls = [
      '/api/loans',
      '/api/loans?search=home&sort_by=principal_amount&sort_order=ASC',
      '/api/loans/stats',
      '/api/transactions',
      '/api/transactions?search=rent',
      '/api/transactions/stats',
      '/api/ledger/periods',
    ];
    const before = new Map<string, Awaited<ReturnType<typeof read>>>();
    for (const url of urls) {
      const first = await read(alice, url);
      expect(first.status, url).toBe(200);
      expect(first.etag, url).toMatch(/^W\/"[\w-]+"$/);
      expect(await read(alice, url), url).toEqual(first);
      expect((await read(alice, url, { 'if-none-match': first.etag })).status, url).toBe(304);
      // Bob asks the same URL with Alice's tag: his own answer, never hers.
      const bobs = await read(bob, url, { 'if-none-match': first.etag });
      expect(bobs.status, url).toBe(200);
      expect(bobs.etag, url).not.toBe(first.etag);
      before.set(url, first);
    }
    // A query the route refuses is refused every time, never served from the cache.
    for (let i = 0; i < 2; i++) {
      const bad = await t.as(alice).get('/api/transactions?sort_by=nope');
      expect(bad.status).toBe(422);
    }

    // A transaction recorded (by anyone) changes no loan read model: the loan answers stand.
    await record(bob, 'Coffee', '2025-03-12');
    await record(alice, 'Rent for April', '2025-04-05');
    await t.caughtUp(['loans', 'schedules', 'catalog']);
    for (const url of ['/api/loans', '/api/loans/stats']) {
      const old = before.get(url) as Awaited<ReturnType<typeof read>>;
      expect((await read(alice, url, { 'if-none-match': old.etag })).status, url).toBe(304);
    }
    const loan = await t.as(alice).post('/api/loans', loanInput({ short_detail: null, processing_fee: 0 }));
    expect(loan.status, loan.text).toBe(201);
    const principal = Number(loan.body.data.loan.principal_amount);
    for (const url of urls) {
      const old = before.get(url) as Awaited<ReturnType<typeof read>>;
      const now = await read(alice, url, { 'if-none-match': old.etag });
      expect(now.status, url).toBe(200);
      expect(now.etag, url).not.toBe(old.etag);
    }
    const list = JSON.parse((await read(alice, '/api/loans')).body);
    expect(list.data.map((l: { id: string }) => l.id)).toContain(loan.body.data.loan.id);
    const stats = JSON.parse((await read(alice, '/api/loans/stats')).body).data;
    expect(stats.total_amount).toBeGreaterThanOrEqual(principal);
    const rents = JSON.parse((await read(alice, '/api/transactions?search=rent')).body).data;
    expect(rents.transactions.map((r: { notes: string }) => r.notes)).toContain('Rent for April');
    const periods = JSON.parse((await read(alice, '/api/ledger/periods')).body).data.periods;
    expect(periods.map((p: { month: number; year: number }) => `${p.year}-${p.month}`)).toContain('2025-4');
  });
});

/**
 * Two API processes on one database (as production runs several): a write answered by one is in
 * the very next read of the other, though that one had the old answer kept.
 */
describe('cached live reads across processes', () => {
  let t: TestApp;
  let other: { app: FastifyInstance; platform: Runtime } | undefined;
  const alice = randomUUID();

  beforeAll(async () => {
    t = await createTestApp({ clock: testClock('2025-03-20T06:00:00.000Z', { step: 1000 }) });
    const platform = await createRuntime(t.platform.config, { clock: t.platform.clock });
    other = { platform, app: await buildHttpApp(platform) };
  });
  afterAll(async () => {
    await other?.app.close();
    await other?.platform.close();
    await t?.close();
  });

  it('a loan created through the other process is in this one’s next list and totals', async () => {
    const headers = await t.signedInHeader(alice);
    const list = await t.as(alice).get('/api/loans');
    const stats = await t.as(alice).get('/api/loans/stats');
    expect(list.body.data).toEqual([]);
    expect((await t.as(alice).get('/api/loans')).headers.etag).toBe(list.headers.etag);

    const created = await other?.app.inject({
      method: 'POST',
      url: '/api/loans',
      headers,
      payload: loanInput({ short_detail: null, processing_fee: 0 }),
    });
    expect(created?.statusCode, created?.body).toBe(201);
    const loanId = created?.json().data.loan.id;

    const after = await t
      .as(alice)
      .get('/api/loans', { headers: { 'if-none-match': list.headers.etag as string } });
    expect(after.status).toBe(200);
    expect(after.body.data.map((l: { id: string }) => l.id)).toEqual([loanId]);
    const statsAfter = await t.as(alice).get('/api/loans/stats');
    expect(statsAfter.headers.etag).not.toBe(stats.headers.etag);
    expect(statsAfter.body.data.total_loans).toBe(1);
  });
});

/**
 * The tags are per user (runner migration 004): another user's write leaves a user's answers
 * (304 on the old ETag) and keeps them in the cache, while an auditor reading a granted account
 * is tagged with the owner's counts, so the owner's write is in the auditor's next read.
 */
describe('cached live reads: tags per user', () => {
  let t: TestApp;
  const clock = testClock('2025-03-20T06:00:00.000Z', { step: 1000 });
  const alice = randomUUID();
  const bob = randomUUID();
  const auditor = randomUUID();

  beforeAll(async () => {
    t = await createTestApp({ clock, env: { ANSWER_CACHE_MB: '32' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const record = async (userId: string, notes: string) => {
    const res = await t.as(userId).post('/api/transactions', {
      notes,
      transaction_type: 'D',
      transaction_date: '2025-03-05',
      amount: 10,
    });
    expect(res.status).toBe(201);
  };

  it("another user's write leaves the answers; the owner's is in an auditor's next read", async () => {
    await record(alice, 'Rent');
    const spending = '/api/reports/spending?from=2025-03-01&to=2025-03-31';
    const urls = ['/api/ledger?month=3&year=2025', '/api/transactions', '/api/transactions/stats', spending];
    const etags = new Map<string, string>();
    for (const url of urls) etags.set(url, (await t.as(alice).get(url)).headers.etag as string);

    await record(bob, 'Coffee');
    await t.caughtUp(['transactions', 'ledger', 'accounts']);
    for (const url of urls) {
      const again = await t.as(alice).get(url, { headers: { 'if-none-match': etags.get(url) as string } });
      expect(again.status, url).toBe(304);
    }

    const granted = await t
      .as(alice)
      .post('/api/audit-grants', { email: userFixture(auditor).email, expires_at: '2025-03-31' });
    expect(granted.status, granted.text).toBe(201);
    await t.caughtUp(['audit-grants']);
    const onAlices = { 'x-kosh-account': alice };
    const seen = await t.as(auditor).get('/api/transactions', { headers: onAlices });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.data.transactions.map((x: { notes: string }) => x.notes)).toEqual(['Rent']);
    // The spending report reads ahead for the token's user: never an answer on another account
    // (reports are not among an auditor's routes), and the auditor's own is the auditor's.
    const spent = await t.as(auditor).get(spending, { headers: onAlices });
    expect(spent.status, spent.text).toBe(403);
    expect(spent.body.data).toBeUndefined();
    expect((await t.as(auditor).get(spending)).body.data.total).toBe(0);

    await record(alice, 'Groceries');
    await t.caughtUp(['transactions', 'ledger', 'accounts']);
    const fresh = await t
      .as(auditor)
      .get('/api/transactions', { headers: { ...onAlices, 'if-none-match': seen.headers.etag as string } });
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.transactions.map((x: { notes: string }) => x.notes).sort()).toEqual([
      'Groceries',
      'Rent',
    ]);
    // Alice's own answers moved with her write.
    const mine = await t
      .as(alice)
      .get('/api/transactions', { headers: { 'if-none-match': etags.get('/api/transactions') as string } });
    expect(mine.status).toBe(200);
  });
});
