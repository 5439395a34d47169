import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { verifyExport } from '@kosh/domain';
import { eraseAccount, eraseDueAccounts, listOutbox, subjectHashOf } from '@kosh/platform';
import { allProjections } from '@kosh/projections';
import { unzipSync } from 'fflate';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeExportCrypto } from '../../history/verify-export';
import { testClock } from '../../testing/clock';
import { loanInput } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { bearer, dataUrl, PNG_1PX, tokenFromLink } from '../auth/testing/fixtures';

/**
 * Issue 32 items 3-5: the data export and the erasure of an account, over PostgreSQL and
 * embedded. The erased user's e-mail, names, notes and amounts are looked for afterwards, after a
 * rebuild of every read model, in every table (every column, bytea included), the upload folder,
 * the mail outbox and the log, and are not found; another user's data and chain are intact.
 */
describe.each(['postgres', 'embedded'] as const)('account export and erasure (%s)', (mode) => {
  const clock = testClock('2026-05-04T05:00:00.000Z', { step: 1000 });
  const logLines: string[] = [];
  let t: TestApp;
  const tag = randomBytes(4).toString('hex');
  const victim = {
    firstName: `Zephyrine${tag}`,
    lastName: `Quixotica${tag}`,
    email: `zephyrine.quixotica.${tag}@erase-me.example`,
    password: 'Tamarind-Monsoon-42',
  };
  const notes = `quokka-ledger-secret-${tag}`;
  const accountName = `Vault of ${victim.lastName}`;
  const importMarker = `XYLOPHONE-MARKER-${tag.toUpperCase()}`;
  /** Amounts nobody else has: the transaction, the loan's principal, the imported row. */
  const amounts = ['98765.43', '431719.37', '3141.59', '9876543', '43171937'];
  let victimId = '';
  let victimToken = '';
  let picture = '';
  const bob = randomUUID();
  const bobNotes = `bob-keeps-this-${tag}`;

  const as = (token: string) => ({
    send: (method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, payload?: object, headers = {}) =>
      t.app.inject({
        method,
        url,
        headers: { ...bearer(token), ...headers },
        ...(payload ? { payload } : {}),
      }),
  });
  const outboxTo = async (to: string) => (await listOutbox(t.platform.db)).filter((m) => m.to === to);

  beforeAll(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
    t = await createTestApp({ mode, clock, logger });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('signs the victim up with a password, a picture, loans, transactions, an account, an import and grants', async () => {
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        first_name: victim.firstName,
        last_name: victim.lastName,
        email: victim.email,
        password: victim.password,
      },
    });
    expect(registered.statusCode).toBe(201);
    const verifyMail = await waitFor(async () => (await outboxTo(victim.email))[0]);
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify-email',
      payload: { token: tokenFromLink(verifyMail.text, '/verify-email') },
    });
    expect(verified.statusCode).toBe(200);
    victimToken = await login();
    const me = as(victimToken);
    victimId = (await me.send('GET', '/api/auth/profile')).json().data.user.id;
    expect(victimId).toMatch(/^[0-9a-f-]{36}$/);

    const pictured = await me.send('POST', '/api/auth/profile-picture', {
      profile_picture: dataUrl(PNG_1PX),
    });
    expect(pictured.statusCode).toBe(200);
    picture = pictured.json().data.user.profile_picture;

    const account = await me.send('POST', '/api/accounts', {
      name: accountName,
      kind: 'savings',
      bank_name: 'HDFC Bank',
      last_four: '4321',
      opening_balance: '10000.50',
      opening_date: '2026-04-01',
    });
    expect(account.statusCode).toBe(201);
    const accountId = account.json().data.account.id;
    const txn = await me.send('POST', '/api/transactions', {
      notes,
      transaction_type: 'D',
      transaction_date: '2026-04-03',
      amount: 98765.43,
      account_id: accountId,
    });
    expect(txn.statusCode, txn.body).toBe(201);
    const wallet = await me.send('POST', '/api/accounts', {
      name: `Wallet of ${victim.lastName}`,
      kind: 'wallet',
      opening_balance: '0',
      opening_date: '2026-04-01',
    });
    expect(wallet.statusCode, wallet.body).toBe(201);
    const transfer = await me.send('POST', '/api/transfers', {
      from_account_id: accountId,
      to_account_id: wallet.json().data.account.id,
      amount: 1500,
      transfer_date: '2026-04-04',
      notes: 'Top up',
    });
    expect(transfer.statusCode, transfer.body).toBe(201);
    const loan = await me.send('POST', '/api/loans', loanInput({ principal_amount: 431719.37 }));
    expect(loan.statusCode, loan.body).toBe(201);

    const statement = [
      'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
      `05/04/26,${importMarker},0000000000000401,05/04/26,3141.59,,6858.91`,
    ].join('\r\n');
    const boundary = `----kosh${randomBytes(8).toString('hex')}`;
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="account_id"\r\n\r\n${accountId}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${victim.lastName}.csv"\r\nContent-Type: text/csv\r\n\r\n${statement}\r\n--${boundary}--\r\n`,
    );
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...bearer(victimToken), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const committed = await me.send('POST', `/api/imports/${uploaded.json().data.id}/commit`, {
      confirm_balance_mismatch: true,
    });
    expect(committed.statusCode, committed.body).toBe(200);

    // Bob's own data, a grant from the victim to Bob and one from Bob to the victim, read by her.
    const bobTxn = await t.as(bob).post('/api/transactions', {
      notes: bobNotes,
      transaction_type: 'C',
      transaction_date: '2026-04-03',
      amount: 5000,
    });
    expect(bobTxn.status).toBe(201);
    const bobEmail = (await t.as(bob).get('/api/auth/profile')).body.data.user.email;
    expect(
      (await me.send('POST', '/api/audit-grants', { email: bobEmail, expires_at: '2026-12-31' })).statusCode,
    ).toBe(201);
    const received = await t
      .as(bob)
      .post('/api/audit-grants', { email: victim.email, expires_at: '2026-12-31' });
    expect(received.status).toBe(201);
    const read = await me.send('GET', '/api/transactions', undefined, { 'x-kosh-account': bob });
    expect(read.statusCode).toBe(200);
    expect(read.body).toContain(bobNotes);
    // Mail naming her went out: to her (verification, the grant to her) and to Bob (her grant).
    expect(
      await waitFor(async () =>
        (await listOutbox(t.platform.db)).some((m) => m.text.includes(victim.firstName)),
      ),
    ).toBe(true);
    // The scan below finds what is there: before the erasure, every kind of term in many tables.
    const before = await findInDatabase([victim.email, notes, importMarker, '98765.43', victimId]);
    for (const table of [
      'events',
      'users',
      'transactions',
      'mail_outbox',
      'import_previews',
      'history_events',
    ]) {
      expect(
        before.some((hit) => hit.endsWith(`"${table}"`)),
        table,
      ).toBe(true);
    }
  });

  it('exports everything of hers, and only hers, as one zip with the signed history', async () => {
    expect(await t.caughtUp(['history'])).toBe(true);
    const res = await as(victimToken).send('GET', '/api/account/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files).sort()).toEqual(
      [
        'accounts.csv',
        'book.csv',
        'history.jsonl',
        'kosh-data.json',
        'ledger-months.csv',
        'loans.csv',
        'schedules.csv',
      ].sort(),
    );
    const text = (name: string) => Buffer.from(files[name] as Uint8Array).toString('utf8');
    const data = JSON.parse(text('kosh-data.json'));
    expect(data.user_id).toBe(victimId);
    expect(data.read_models.users.users[0]).toMatchObject({
      email: victim.email,
      first_name: victim.firstName,
    });
    expect(data.read_models.users.users[0]).not.toHaveProperty('reset_token_hash');
    expect(Object.keys(data.read_models)).toEqual(
      expect.arrayContaining([
        'transactions',
        'loans',
        'schedules',
        'accounts',
        'imports',
        'audit-grants',
        'erasures',
      ]),
    );
    expect(text('book.csv')).toContain(notes);
    expect(text('book.csv')).toContain('98765.43');
    expect(text('loans.csv')).toContain('431719.37');
    expect(text('accounts.csv')).toContain(accountName);
    expect(text('schedules.csv').split('\r\n').length).toBeGreaterThan(10);
    const key = (await as(victimToken).send('GET', '/api/export/public-key')).json().data.public_key;
    // The signed history, as GET /api/export/history gives it: it verifies in full (every line's
    // link recomputed), her accounts, transfer and import included (event-store migration 009).
    const history = text('history.jsonl').trim().split('\n');
    expect(JSON.parse(history[history.length - 1] as string)).toMatchObject({
      kind: 'summary',
      public_key: key,
    });
    expect(history.length).toBeGreaterThan(10);
    const verified = await verifyExport(text('history.jsonl'), nodeExportCrypto, key);
    expect(verified).toMatchObject({ ok: true, userId: victimId, count: history.length - 2 });
    const types = history.map((l) => JSON.parse(l).event?.type as string | undefined);
    expect(types).toEqual(
      expect.arrayContaining(['AccountOpened', 'TransferRecorded', 'ImportCommitted', 'TransactionRecorded']),
    );
    // The import's line is the event as recorded (its rows), so its link is recomputed from it.
    const imported = JSON.parse(history[types.indexOf('ImportCommitted')] as string);
    expect(imported.chain).toEqual({ seq: expect.any(Number), hash: expect.any(String) });
    expect(JSON.stringify(imported.event.data.rows)).toContain(importMarker);
    const { rows: store } = await t.platform.db.query<{ seq: string; hash: string }>(
      'SELECT seq, hash FROM event_chain_heads WHERE user_id = $1',
      [victimId],
    );
    expect(verified.ok && verified.chainHead).toEqual({ seq: Number(store[0]?.seq), hash: store[0]?.hash });
    // Every one of her events in the store is a line of the export, and the same GET verifies.
    const { rows: owned } = await t.platform.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM events WHERE kosh_event_owner(stream_id, data, metadata) = $1',
      [victimId],
    );
    expect(owned[0]?.n).toBe(history.length - 2);
    const direct = await as(victimToken).send('GET', '/api/export/history');
    expect(await verifyExport(direct.body, nodeExportCrypto, key)).toMatchObject({ ok: true });
    // Nothing of Bob's, though he shared his account with her.
    for (const name of Object.keys(files)) expect(text(name)).not.toContain(bobNotes);
  });

  it("never exports another account: the header naming Bob's account is refused, his grant or not", async () => {
    const res = await as(victimToken).send('GET', '/api/account/export', undefined, {
      'x-kosh-account': bob,
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain(bobNotes);
    const bobs = await t.as(bob).get('/api/account/export', { headers: { 'x-kosh-account': victimId } });
    expect(bobs.status).toBe(403);
  });

  it('rate-limits the export per user', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.as(bob).get('/api/account/export')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('asks for the password and the word DELETE, per field, and records nothing on a refusal', async () => {
    const me = as(victimToken);
    const before = await eventCount();
    const wrong = await me.send('DELETE', '/api/account', { password: 'not-it', confirmation: 'delete' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual([
      { field: 'password', message: 'Password is incorrect' },
      { field: 'confirmation', message: 'Type DELETE to confirm' },
    ]);
    expect((await me.send('DELETE', '/api/account', {})).json().errors).toEqual([
      { field: 'password', message: 'Password is required' },
      { field: 'confirmation', message: 'Type DELETE to confirm' },
    ]);
    expect(await eventCount()).toBe(before);
  });

  it("cannot erase another account: Bob's request naming hers is refused and leaves her be", async () => {
    const res = await t
      .as(bob)
      .send(
        'DELETE',
        '/api/account',
        { password: victim.password, confirmation: 'DELETE' },
        { headers: { 'x-kosh-account': victimId } },
      );
    expect(res.status).toBe(403);
    expect((await as(victimToken).send('GET', '/api/account/erasure')).json().data.erasure).toBeNull();
  });

  it('schedules the erasure 7 days out and mails it; signing in cancels it and mails that', async () => {
    const me = as(victimToken);
    const asked = await me.send('DELETE', '/api/account', {
      password: victim.password,
      confirmation: 'DELETE',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const { erase_after, requested_at } = asked.json().data.erasure;
    expect(Date.parse(erase_after) - Date.parse(requested_at)).toBe(7 * 24 * 3600 * 1000);
    expect((await me.send('GET', '/api/account/erasure')).json().data.erasure).toEqual({
      requested_at,
      erase_after,
    });
    expect(
      (await me.send('DELETE', '/api/account', { password: victim.password, confirmation: 'DELETE' }))
        .statusCode,
    ).toBe(409);
    await waitFor(async () =>
      (await outboxTo(victim.email)).find((m) => m.subject.includes('will be deleted')),
    );

    victimToken = await login();
    expect((await as(victimToken).send('GET', '/api/account/erasure')).json().data.erasure).toBeNull();
    await waitFor(async () =>
      (await outboxTo(victim.email)).find((m) => m.subject.includes('will not be deleted')),
    );
    // Both are hers in History, and in her chain, which verifies.
    const history = await waitFor(async () => {
      const res = await as(victimToken).send('GET', '/api/history?type=AccountErasureCancelled');
      const entries = res.json().data.entries as { summary: string }[];
      return entries.length > 0 && entries;
    });
    expect(history.map((e) => e.summary)).toEqual(['Deletion of the account cancelled by signing in']);
    const requested = (await as(victimToken).send('GET', '/api/history?type=AccountErasureRequested')).json();
    expect(requested.data.entries[0].summary).toBe(
      `Deletion of the account requested: it is erased on ${erase_after.slice(0, 10)} unless cancelled`,
    );
    const { rows: chain } = await t.platform.db.query<{ broken: string | null; links: number }>(
      `SELECT kosh_chain_verify($1) AS broken,
              (SELECT count(*)::int FROM event_chain c JOIN events e ON e.global_position = c.global_position
                WHERE c.user_id = $1 AND e.stream_id LIKE 'erasure-%') AS links`,
      [victimId],
    );
    expect(chain).toEqual([{ broken: null, links: 2 }]);
    // Nothing due any more, even long after.
    expect(await eraseDueAccounts(t.platform.erasure, new Date(Date.parse(erase_after) + 60_000))).toBe(0);
  });

  it('"Cancel deletion" cancels too; a request left alone is erased by the job only once 7 days passed', async () => {
    const me = as(victimToken);
    expect(
      (await me.send('DELETE', '/api/account', { password: victim.password, confirmation: 'DELETE' }))
        .statusCode,
    ).toBe(200);
    expect((await me.send('POST', '/api/account/restore')).statusCode).toBe(200);
    expect((await me.send('POST', '/api/account/restore')).statusCode).toBe(409);
    const asked = await me.send('DELETE', '/api/account', {
      password: victim.password,
      confirmation: 'DELETE',
    });
    const eraseAfter = Date.parse(asked.json().data.erasure.erase_after);
    expect(await eraseDueAccounts(t.platform.erasure, new Date(eraseAfter - 60_000))).toBe(0);
    expect((await me.send('GET', '/api/transactions')).body).toContain(notes);

    clock.set(new Date(eraseAfter + 60_000).toISOString());
    const started = Date.now();
    expect(await eraseDueAccounts(t.platform.erasure, clock())).toBe(1);
    console.log(`${mode}: erased the account in ${Date.now() - started} ms`);
    // Done once: a second run (or a replayed job) finds nothing.
    expect(await eraseAccount(t.platform.erasure, victimId, clock())).toEqual({ erased: false });
  });

  it('leaves nothing of hers to read: API, sign-in, every table after a rebuild, uploads, outbox, log', async () => {
    expect((await as(victimToken).send('GET', '/api/auth/profile')).statusCode).toBe(401);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: victim.email, password: victim.password },
    });
    expect(signIn.statusCode).toBe(401);
    // Bob's account, as he sees it and as she saw it, no longer shows her.
    const bobGrants = (await t.as(bob).get('/api/audit-grants')).text;
    expect(bobGrants).not.toContain(victim.email);

    let started = Date.now();
    for (const projection of allProjections) {
      console.log(`${mode}: rebuilding ${projection.name}`);
      await t.platform.runner.rebuild(projection.name);
    }
    console.log(`${mode}: rebuilt every read model in ${Date.now() - started} ms`);
    started = Date.now();
    const terms = [
      victim.email,
      victim.firstName,
      victim.lastName,
      notes,
      accountName,
      importMarker,
      victimId,
      ...amounts,
    ];
    expect(await findInDatabase(terms)).toEqual([]);
    console.log(`${mode}: scanned every table in ${Date.now() - started} ms`);
    const uploads = await filesUnder(t.platform.config.UPLOADS_DIR);
    expect(uploads.map((f) => path.basename(f))).not.toContain(picture);
    for (const file of uploads) {
      const bytes = await readFile(file);
      for (const term of terms) expect(bytes.includes(Buffer.from(term)), `${term} in ${file}`).toBe(false);
    }
    expect(JSON.stringify(await listOutbox(t.platform.db, 10_000))).not.toMatch(
      new RegExp(`${tag}|${victimId}`, 'i'),
    );
    const log = logLines.join('');
    for (const term of terms) expect(log.includes(term), `${term} in the log`).toBe(false);
    expect(log).toContain('account erased');

    // The tombstone: a keyed hash, a count, the chain's last head; no chain left of hers.
    const { rows: tomb } = await t.platform.db.query<{ subject_hash: string; events_erased: number }>(
      'SELECT subject_hash, events_erased FROM erased_accounts',
    );
    expect(tomb).toEqual([
      {
        subject_hash: subjectHashOf(t.platform.erasure.subjectKey, victimId),
        events_erased: expect.any(Number),
      },
    ]);
    expect(tomb[0]?.events_erased).toBeGreaterThan(10);
    const { rows: chain } = await t.platform.db.query('SELECT 1 FROM event_chain WHERE user_id = $1', [
      victimId,
    ]);
    expect(chain).toEqual([]);
  }, 180_000);

  it("keeps Bob's data and chain: his book, his verifying chain and history export", async () => {
    expect((await t.as(bob).get('/api/transactions')).text).toContain(bobNotes);
    const { rows } = await t.platform.db.query<{ broken: string | null }>(
      'SELECT kosh_chain_verify($1) AS broken',
      [bob],
    );
    expect(rows[0]?.broken).toBeNull();
    // His chain was re-linked (his grant named her address): the rewrite is recorded, and says why.
    const { rows: rewrites } = await t.platform.db.query<{ reason: string }>(
      'SELECT reason FROM event_chain_rewrites WHERE user_id = $1',
      [bob],
    );
    expect(rewrites).toEqual([{ reason: 'erasure of another account' }]);
    const key = (await t.as(bob).get('/api/export/public-key')).body.data.public_key;
    const exported = await t.as(bob).get('/api/export/history');
    expect(exported.text).toContain(bobNotes);
    expect(await verifyExport(exported.text, nodeExportCrypto, key)).toMatchObject({ ok: true });
    // The address is free again.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { first_name: 'New', last_name: 'Person', email: victim.email, password: victim.password },
    });
    expect(again.statusCode).toBe(201);
  });

  async function login(): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: victim.email, password: victim.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.token;
  }

  async function eventCount(): Promise<number> {
    const { rows } = await t.platform.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    return rows[0]?.n ?? 0;
  }

  /** Every base table of every schema but the system's: each row as text, and each bytea column's bytes. */
  async function findInDatabase(terms: readonly string[]): Promise<string[]> {
    const { rows: tables } = await t.platform.db.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
          AND table_schema NOT LIKE 'pg_toast%'`,
    );
    expect(tables.map((r) => r.table_name)).toEqual(
      expect.arrayContaining(['events', 'mail_outbox', 'import_previews']),
    );
    const { rows: byteColumns } = await t.platform.db.query<{
      table_schema: string;
      table_name: string;
      column_name: string;
    }>(
      `SELECT table_schema, table_name, column_name FROM information_schema.columns
        WHERE data_type = 'bytea' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    const found: string[] = [];
    for (const { table_schema, table_name } of tables) {
      const name = `"${table_schema}"."${table_name}"`;
      for (const term of terms) {
        const { rows } = await t.platform.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${name} x WHERE strpos(lower(x::text), lower($1)) > 0`,
          [term],
        );
        if ((rows[0]?.n ?? 0) > 0) found.push(`${term} in ${name}`);
      }
    }
    for (const { table_schema, table_name, column_name } of byteColumns) {
      for (const term of terms) {
        const { rows } = await t.platform.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${table_schema}"."${table_name}" WHERE position(convert_to($1, 'UTF8') IN "${column_name}") > 0`,
          [term],
        );
        if ((rows[0]?.n ?? 0) > 0) found.push(`${term} in ${table_name}.${column_name}`);
      }
    }
    return found;
  }
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(full)));
    else files.push(full);
  }
  return files;
}

async function waitFor<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('waited too long');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
