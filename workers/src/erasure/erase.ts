import { createHmac, randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { type AccountErased, ERASED_ACCOUNTS_STREAM, erasureStreamId, userStreamId } from '@kosh/domain';
import type { Db, Queryable } from '@kosh/event-store';
import { dueErasures } from '@kosh/projections';
import type { Mailer } from '../mail/mailer';
import { accountErasedMail } from '../mail/templates';
import type { JobQueue } from '../queue/port';

/**
 * Account erasure (issue 32; the reasoning is in ARCHITECTURE.md "Erasure"): the owner's
 * streams are deleted from the log, their hash chain with them (a tombstone keeps a keyed hash
 * of the id, the count and the last head), the read models' rows of theirs are deleted, their
 * address is replaced in the few events of other accounts that held it (audit grants to them,
 * reads they made as an auditor) and those accounts' chains are re-linked, the mail outbox and
 * the upload folder lose what was theirs. One transaction for the database, files after it.
 */
export type ErasureDeps = {
  db: Db;
  uploadsDir: string;
  mailer: Mailer;
  appUrl: string;
  /** Key of the tombstone's keyed hash of the user id (the platform derives it from configuration). */
  subjectKey: string;
  logger?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
};

/** The same lock key the store's appends take per stream (event-store migrations 001). */
const STREAM_LOCK = 1265594216;
/** What replaces the erased person's address or id inside another account's event. */
export const ERASED = '[erased]';
/** The table that says where another account's chain was re-linked: its user ids are not the erased one's. */
const KEPT_TABLES = new Set(['event_chain_rewrites']);

export const ERASURE_JOB = 'erasure:due';
/** How often the job looks for accounts whose cooling-off period has ended. */
export const ERASURE_JOB_EVERY_MS = 15 * 60 * 1000;

/** HMAC-SHA-256 of the user id: the only name an erased account keeps (tombstone, backups' list). */
export const subjectHashOf = (key: string, userId: string): string =>
  createHmac('sha256', key).update(`kosh-erasure:${userId}`, 'utf8').digest('hex');

const ownerSql = (alias: string) =>
  `coalesce(${alias}.metadata->>'userId', ${alias}.data->>'userId', ${alias}.data->>'ownerUserId')`;

type Personal = { emails: string[]; fullNames: string[]; pictures: string[] };

async function personalOf(tx: Queryable, userId: string): Promise<Personal> {
  const { rows } = await tx.query<{ kind: string; value: string }>(
    `SELECT DISTINCT x.kind, x.value FROM events e
       CROSS JOIN LATERAL (VALUES
         ('email', e.data->>'email'), ('email', e.data->>'previousEmail'),
         ('name', nullif(trim(concat_ws(' ', e.data->>'firstName', e.data->>'lastName')), '')),
         ('picture', e.data->>'fileName'), ('picture', e.data->>'previousFileName')
       ) AS x(kind, value)
      WHERE e.stream_id IN ($1, $2) AND x.value IS NOT NULL`,
    [userStreamId(userId), erasureStreamId(userId)],
  );
  const of = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => r.value);
  return { emails: of('email'), fullNames: of('name'), pictures: of('picture') };
}

/** Whether the stream's last event is a request whose period has ended at `now`. */
async function isDue(tx: Queryable, userId: string, now: Date): Promise<boolean> {
  const { rows } = await tx.query<{ type: string; erase_after: string | null }>(
    `SELECT type, data->>'eraseAfter' AS erase_after FROM events WHERE stream_id = $1
      ORDER BY stream_version DESC LIMIT 1`,
    [erasureStreamId(userId)],
  );
  const last = rows[0];
  return (
    last?.type === 'AccountErasureRequested' &&
    last.erase_after !== null &&
    Date.parse(last.erase_after) <= now.getTime()
  );
}

const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

export type ErasureOutcome =
  | { erased: false }
  | { erased: true; subjectHash: string; eventsErased: number; chainsRelinked: number; email: string | null };

/**
 * Erases `userId` if their request is still pending and due at `now` (checked on the stream under
 * the stream's lock, so a sign-in that cancels it either lands before and wins, or waits and
 * finds nothing to cancel). `force` skips the check (tests of the mechanism, an operator's re-run
 * of an erasure a restored backup brought back).
 */
export async function eraseAccount(
  deps: ErasureDeps,
  userId: string,
  now: Date,
  options: { force?: boolean } = {},
): Promise<ErasureOutcome> {
  const at = now.toISOString();
  const subjectHash = subjectHashOf(deps.subjectKey, userId);
  const outcome = await deps.db.transaction(async (tx) => {
    await tx.query(
      'SELECT pg_advisory_xact_lock($1, hashtext($2)), pg_advisory_xact_lock($1, hashtext($3))',
      [STREAM_LOCK, erasureStreamId(userId), userStreamId(userId)],
    );
    if (!options.force && !(await isDue(tx, userId, now))) return null;
    const personal = await personalOf(tx, userId);
    const { rows: lastEmail } = await tx.query<{ email: string | null }>(
      `SELECT data->>'email' AS email FROM events WHERE stream_id = $1 AND data ? 'email'
        ORDER BY stream_version DESC LIMIT 1`,
      [userStreamId(userId)],
    );

    // The chain as it ended, for the tombstone (under its chain lock, as an append takes it after
    // the stream's); its links go with the events.
    await tx.query('SELECT kosh_chain_lock(ARRAY[$1::text])', [userId]);
    const { rows: head } = await tx.query<{ seq: string; hash: string }>(
      'SELECT seq, hash FROM event_chain_heads WHERE user_id = $1',
      [userId],
    );

    // Every stream the owner started (not the e-mail reservations, which several accounts share
    // over time), their own user and erasure streams, and any other event they own.
    const { rows: deleted } = await tx.query<{ owner: string | null }>(
      `WITH owned AS (
         SELECT e.stream_id FROM events e
          WHERE e.stream_version = 1 AND e.stream_id NOT LIKE 'email-%' AND ${ownerSql('e')} = $1
       )
       DELETE FROM events e
        WHERE e.stream_id IN (SELECT stream_id FROM owned) OR e.stream_id IN ($2, $3) OR ${ownerSql('e')} = $1
       RETURNING kosh_event_owner(e.stream_id, e.data, e.metadata) AS owner`,
      [userId, userStreamId(userId), erasureStreamId(userId)],
    );
    const relink = new Set<string>();
    for (const r of deleted) if (r.owner && r.owner !== userId) relink.add(r.owner);

    // Other accounts' events that name them (an audit grant to their address, reads they made
    // under it): the address and the id are replaced, the grant ends with it.
    const terms = [...personal.emails, userId];
    for (const term of terms) {
      const { rows } = await tx.query<{ owner: string | null }>(
        `UPDATE events e SET
           data = replace(e.data::text, to_jsonb($1::text)::text, to_jsonb($2::text)::text)::jsonb,
           metadata = replace(e.metadata::text, to_jsonb($1::text)::text, to_jsonb($2::text)::text)::jsonb
         WHERE strpos(e.data::text, to_jsonb($1::text)::text) > 0 OR strpos(e.metadata::text, to_jsonb($1::text)::text) > 0
         RETURNING kosh_event_owner(e.stream_id, e.data, e.metadata) AS owner`,
        [term, ERASED],
      );
      for (const r of rows) if (r.owner && r.owner !== userId) relink.add(r.owner);
      // The read models' copies of those events (History) and grants (the auditor's address).
      await tx.query(
        `UPDATE history_events SET
           data = replace(data::text, to_jsonb($1::text)::text, to_jsonb($2::text)::text)::jsonb,
           metadata = replace(metadata::text, to_jsonb($1::text)::text, to_jsonb($2::text)::text)::jsonb
         WHERE user_id <> $3 AND (strpos(data::text, to_jsonb($1::text)::text) > 0
           OR strpos(metadata::text, to_jsonb($1::text)::text) > 0)`,
        [term, ERASED, userId],
      );
      await tx.query(
        'UPDATE audit_grants SET email = $2, revoked_at = coalesce(revoked_at, $3) WHERE email = $1',
        [term, ERASED, at],
      );
    }

    // Every table of ours with a row of theirs: read models, previews of imports (the uploaded
    // statement files), the chain's links and head, and whatever a later feature adds with a
    // user_id column (sessions, second-factor secrets): found from the catalog, not listed.
    const { rows: columns } = await tx.query<{ table_name: string; column_name: string }>(
      `SELECT c.table_name, c.column_name FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
          AND c.column_name IN ('user_id', 'owner_user_id')
        ORDER BY c.table_name, c.column_name`,
    );
    for (const { table_name, column_name } of columns) {
      if (KEPT_TABLES.has(table_name)) continue;
      await tx.query(`DELETE FROM ${quoted(table_name)} WHERE ${quoted(column_name)} = $1`, [userId]);
    }
    // "Last seen" is kept by session id alone (not a read model: a rebuild leaves it); the
    // sessions just deleted take theirs with them.
    if (
      (await tx.query<{ t: string | null }>("SELECT to_regclass('session_activity')::text AS t")).rows[0]?.t
    ) {
      await tx.query(
        'DELETE FROM session_activity a WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = a.session_id)',
      );
    }
    await tx.query(
      `INSERT INTO erased_accounts (subject_hash, erased_at, events_erased, chain_seq, chain_head)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (subject_hash) DO UPDATE SET erased_at = EXCLUDED.erased_at,
         events_erased = erased_accounts.events_erased + EXCLUDED.events_erased`,
      [subjectHash, at, deleted.length, head[0] ? Number(head[0].seq) : null, head[0]?.hash ?? null],
    );
    // The log's record of it, after every erased event: a rebuild replays up to here, past the
    // live checkpoints that may point at an erased event.
    const erased: AccountErased['data'] = { subjectHash, eventsErased: deleted.length, erasedAt: at };
    await tx.query(
      'SELECT * FROM kosh_append_one($1, -2, $2::text[], $3::text[], $4::jsonb[], $5::jsonb[])',
      [
        ERASED_ACCOUNTS_STREAM,
        [randomUUID()],
        ['AccountErased'],
        [JSON.stringify(erased)],
        [
          JSON.stringify({
            userId: null,
            correlationId: randomUUID(),
            causationId: null,
            recordedAt: at,
            schemaVersion: 1,
          }),
        ],
      ],
    );
    for (const owner of [...relink].sort()) {
      await tx.query('SELECT kosh_chain_rebuild($1, $2, $3)', [owner, 'erasure of another account', at]);
    }
    await purgeOutbox(tx, personal);
    // Cached answers are tagged with each read model's change count: rows went without a batch.
    await tx.query('UPDATE projection_checkpoints SET changes = changes + 1');
    return {
      personal,
      eventsErased: deleted.length,
      chainsRelinked: relink.size,
      email: lastEmail[0]?.email ?? null,
    };
  });
  if (!outcome) return { erased: false };

  for (const fileName of outcome.personal.pictures) {
    if (path.basename(fileName) !== fileName) continue;
    await unlink(path.join(deps.uploadsDir, 'profile-pictures', fileName)).catch(() => undefined);
  }
  // The last mail ("erased") goes to the address the account had; in embedded mode the outbox
  // stands in for the relay, and it loses that mail too, like every other one to them.
  if (outcome.email) {
    try {
      await deps.mailer.send(accountErasedMail({ appUrl: deps.appUrl, to: outcome.email }));
      await deps.db.query(
        `INSERT INTO mail_deliveries (event_id, kind, sent, claimed_at, sent_at) VALUES ($1, 'account-erased', true, $2, $2)
         ON CONFLICT (event_id) DO NOTHING`,
        [`erasure-${subjectHash}`, at],
      );
    } catch (error) {
      deps.logger?.warn(
        { subject: subjectHash.slice(0, 16), err: error },
        'account erased; its last mail failed',
      );
    }
    await purgeOutbox(deps.db, outcome.personal);
  }
  deps.logger?.info(
    {
      subject: subjectHash.slice(0, 16),
      events: outcome.eventsErased,
      chainsRelinked: outcome.chainsRelinked,
    },
    'account erased',
  );
  return {
    erased: true,
    subjectHash,
    eventsErased: outcome.eventsErased,
    chainsRelinked: outcome.chainsRelinked,
    email: outcome.email,
  };
}

/** Mail to any of their addresses, or naming them (a grant they gave names them to the auditor). */
async function purgeOutbox(db: Queryable, personal: Personal): Promise<void> {
  const terms = [...personal.emails, ...personal.fullNames]
    .map((t) => t.toLowerCase())
    .filter((t) => t.length > 0);
  if (terms.length === 0) return;
  await db.query(
    `DELETE FROM mail_outbox o WHERE lower(o.to_address) = ANY($1::text[]) OR EXISTS (
       SELECT 1 FROM unnest($1::text[]) AS t(term)
        WHERE strpos(lower(o.subject || ' ' || o.text_body || ' ' || o.html_body), t.term) > 0)`,
    [terms],
  );
}

/** Erases every account whose cooling-off period has ended at `now`; the job's body. */
export async function eraseDueAccounts(deps: ErasureDeps, now: Date): Promise<number> {
  let erased = 0;
  for (const userId of await dueErasures(deps.db, now)) {
    const outcome = await eraseAccount(deps, userId, now);
    if (outcome.erased) erased++;
  }
  return erased;
}

/** The repeated `erasure:due` job (BullMQ, or in-process when embedded). */
export async function registerErasureJobs(
  queue: JobQueue,
  deps: ErasureDeps & { clock: () => Date },
  options: { everyMs?: number } = {},
): Promise<void> {
  queue.process(ERASURE_JOB, async () => {
    await eraseDueAccounts(deps, deps.clock());
  });
  await queue.schedule(ERASURE_JOB, options.everyMs ?? ERASURE_JOB_EVERY_MS);
}
