/**
 * The many-user log of `npm run bench:scale` (issue 33 item 5): each user's events made by the
 * domain's deciders (registration, the seeded categories, two accounts, three loans with their
 * schedules, the rest transactions in those accounts and categories over three years), users'
 * events interleaved in the log as many users' appends are, and loaded with COPY in the event
 * store's own rows: the same columns and the same per-user hash chain links the append path
 * writes (`chainLinkText`, the text migration 003's `kosh_chain_hash` hashes), so the store's
 * readers, the projections and `kosh_chain_verify` take them as appended events.
 *
 * The column list is read from the database at run time: a column this loader does not fill must
 * have a default (else it stops and names the column). Where the chain lives is the one thing
 * written here: `event_chain` rows (migrations 003-009); a store that keeps the link in the event
 * row changes `chainRowsOf`/`CHAIN_TABLE` only.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import {
  accountDecider,
  accountStreamId,
  CATEGORY_SEEDS,
  categoryDecider,
  categoryStreamId,
  type DomainEvent,
  eventOwner,
  jsonbText,
  type LoanFields,
  loanDecider,
  loanStreamId,
  type TransactionRecorded,
  transactionDecider,
  transactionStreamId,
  userDecider,
  userStreamId,
} from '@kosh/domain';
import type { Db } from '@kosh/event-store';

/** One row of the log, as the store writes it. */
export type LogRow = {
  eventId: string;
  streamId: string;
  version: number;
  type: string;
  data: unknown;
  metadata: unknown;
};

const DEBITS = [
  ['Groceries at BigBasket', 'groceries'],
  ['Rent', 'rent'],
  ['Electricity bill', 'electricity'],
  ['Swiggy order', 'dining-out'],
  ['Petrol', 'fuel'],
  ['Mobile recharge', 'mobile-internet'],
  ['Medical store', 'medical'],
  ['School fees', 'education'],
  ['Insurance premium', 'insurance'],
  ['Maid salary', 'household-help'],
] as const;
const CREDITS = [
  ['Salary', 'salary'],
  ['Interest credit', 'interest'],
  ['Rent received', 'rent-received'],
] as const;

/** Months of the loans (three per user: a home loan, a car loan, a personal loan). */
export const SCALE_LOAN_DURATIONS = [120, 60, 36] as const;
/** Transactions are dated over these three years: a month holds about a 36th of them. */
const FIRST_DAY = Date.UTC(2023, 0, 1);
const DAYS = 1095;

/** Deterministic per user, so a run's numbers do not depend on luck. */
function random(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

function loanFields(i: number, duration: number, rnd: () => number): LoanFields {
  const start = new Date(Date.UTC(2022 + i, (i * 5) % 12, 1 + Math.floor(rnd() * 27)))
    .toISOString()
    .slice(0, 10);
  return {
    bankId: 1 + Math.floor(rnd() * 20),
    loanTypeId: 1 + (i % 10),
    accountNumber: `AC${100000 + Math.floor(rnd() * 900000)}`,
    shortDetail: null,
    principalAmount: [40_00_000_00, 8_00_000_00, 3_00_000_00][i] ?? 1_00_000_00,
    interestRate: [8.5, 9.25, 12.5][i] ?? 10,
    isInterestRateYearly: true,
    duration,
    isDurationYearly: false,
    startDate: start,
    processingFee: 0,
    hasGst: false,
    gstPercentage: 0,
    emisAutoDebited: true,
    processingFeeGst: true,
  };
}

/**
 * The events of user number `index` (about `count` of them; at least the fixed ones), each with
 * its stream and version, in the order the user made them.
 */
export function userEvents(index: number, count: number, now: Date): { userId: string; rows: LogRow[] } {
  const rnd = random(index * 7919 + 17);
  const userId = randomUUID();
  const at = now.toISOString();
  const rows: LogRow[] = [];
  const meta = () => ({
    userId,
    correlationId: randomUUID(),
    causationId: null,
    recordedAt: at,
    schemaVersion: 1,
  });
  const push = (streamId: string, events: readonly DomainEvent[], from = 0) => {
    events.forEach((event, i) => {
      rows.push({
        eventId: randomUUID(),
        streamId,
        version: from + i + 1,
        type: event.type,
        data: event.data,
        metadata: meta(),
      });
    });
  };

  push(
    userStreamId(userId),
    userDecider.decide(
      {
        type: 'RegisterUser',
        data: {
          userId,
          firstName: 'Scale',
          lastName: `User${index}`,
          email: `scale-${index}@example.in`,
          passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2NhbGVzYWx0$scalebenchpasswordhashscalebench',
          verification: {
            tokenHash: createHash('sha256').update(userId).digest('hex'),
            sealedToken: 'sealed',
            expiresAt: at,
          },
          now: at,
        },
      },
      userDecider.initialState(),
    ),
  );

  const seeded = categoryDecider.decide(
    { type: 'SeedCategories', data: { userId, seedIds: CATEGORY_SEEDS.map(() => randomUUID()), now: at } },
    categoryDecider.initialState(),
  );
  push(categoryStreamId(userId), seeded);
  const seededEvent = seeded[0];
  const categoryOf = new Map<string, string>();
  if (seededEvent?.type === 'CategoriesSeeded')
    for (const c of seededEvent.data.categories) if (c.systemKey) categoryOf.set(c.systemKey, c.categoryId);

  const accounts = ['Salary account', 'Credit card'].map((name, i) => {
    const accountId = randomUUID();
    push(
      accountStreamId(accountId),
      accountDecider.decide(
        {
          type: 'OpenAccount',
          data: {
            accountId,
            userId,
            now: at,
            name,
            kind: i === 0 ? 'savings' : 'credit-card',
            bankId: 1 + i,
            bankName: null,
            lastFour: `${1000 + Math.floor(rnd() * 9000)}`,
            openingBalance: i === 0 ? 50_000_00 : 0,
            openingDate: '2023-01-01',
          },
        },
        accountDecider.initialState(),
      ),
    );
    return accountId;
  });

  SCALE_LOAN_DURATIONS.forEach((duration, i) => {
    const loanId = randomUUID();
    push(
      loanStreamId(loanId),
      loanDecider.decide(
        { type: 'CreateLoan', data: { loanId, userId, fields: loanFields(i, duration, rnd), now: at } },
        loanDecider.initialState(),
      ),
    );
  });

  const transactions = Math.max(0, count - rows.length);
  for (let t = 0; t < transactions; t++) {
    const transactionId = randomUUID();
    const day = Math.floor((t / Math.max(1, transactions)) * DAYS);
    const credit = rnd() < 0.15;
    const [notes, key] = credit
      ? (CREDITS[Math.floor(rnd() * CREDITS.length)] ?? CREDITS[0])
      : (DEBITS[Math.floor(rnd() * DEBITS.length)] ?? DEBITS[0]);
    const fields = {
      transactionType: credit ? ('C' as const) : ('D' as const),
      transactionDate: new Date(FIRST_DAY + day * 86_400_000).toISOString().slice(0, 10),
      amount: credit ? 1_000_00 + Math.floor(rnd() * 1_00_000_00) : 10_00 + Math.floor(rnd() * 20_000_00),
      notes: `${notes} #${1 + Math.floor(rnd() * 9999)}`,
      accountId: accounts[rnd() < 0.7 ? 0 : 1] ?? null,
      categoryId: categoryOf.get(key) ?? null,
    };
    const recordedAt = new Date(FIRST_DAY + day * 86_400_000 + 36_000_000 + (t % 1000) * 1000).toISOString();
    // The decider's event, built directly (its validation costs more than the rest of the
    // generation); the first user's are checked against the decider's own.
    const recorded: TransactionRecorded[] = [
      { type: 'TransactionRecorded', data: { transactionId, userId, ...fields, recordedAt } },
    ];
    if (index === 0) {
      const decided = transactionDecider.decide(
        {
          type: 'RecordTransaction',
          data: { transactionId, userId, ...fields, payee: null, now: recordedAt },
        },
        transactionDecider.initialState(),
      );
      if (jsonbText(decided) !== jsonbText(recorded))
        throw new Error(`scale-log: TransactionRecorded differs from the decider's: ${jsonbText(decided)}`);
    }
    push(transactionStreamId(transactionId), recorded);
  }
  return { userId, rows };
}

/** COPY text format: backslash, tab, newline and carriage return escaped. */
function copyText(value: string): string {
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) =>
        c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
      )
    : value;
}

/** Columns this loader fills, by the name migration 001 gives them. */
const FILLED = ['global_position', 'event_id', 'stream_id', 'stream_version', 'type', 'data', 'metadata'];
const CHAIN_TABLE = 'event_chain';
/** Migration 010 keeps the link in the event row itself: these columns, when the log has them. */
const CHAIN_COLUMNS = ['chain_owner', 'chain_seq', 'chain_hash'];

/** A COPY into `table` through psql's stdin (no driver dependency), resolved when psql exits. */
function copyInto(url: string, table: string, columns: readonly string[]) {
  const child: ChildProcessWithoutNullStreams = spawn(
    'psql',
    [url, '-q', '-v', 'ON_ERROR_STOP=1', '-c', `COPY ${table} (${columns.join(', ')}) FROM STDIN`],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdout.resume();
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`COPY ${table} failed (${code}): ${stderr}`)),
    );
  });
  let buffered: string[] = [];
  let size = 0;
  return {
    async write(line: string) {
      buffered.push(line);
      size += line.length;
      if (size < 1 << 20) return;
      const text = buffered.join('');
      buffered = [];
      size = 0;
      if (!child.stdin.write(text)) await new Promise((resolve) => child.stdin.once('drain', resolve));
    },
    async end() {
      child.stdin.end(buffered.join(''));
      await done;
    },
  };
}

type Head = { seq: number; hash: string };

/**
 * Loads users into the log. Per `load`: the secondary indexes of the log and the chain are
 * dropped, the rows COPYed (positions given, the chain trigger off: the links are written here),
 * the indexes built again, the chain heads upserted. Positions continue from the log's end.
 */
export async function createLogLoader(db: Db, url: string, now: Date) {
  const { rows: columns } = await db.query<{ name: string; defaulted: boolean; nullable: boolean }>(
    `SELECT column_name AS name, (column_default IS NOT NULL OR is_identity = 'YES' OR is_generated <> 'NEVER') AS defaulted,
            is_nullable = 'YES' AS nullable
       FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'events'`,
  );
  const linkInRow = CHAIN_COLUMNS.every((name) => columns.some((c) => c.name === name));
  const filled = linkInRow ? [...FILLED, ...CHAIN_COLUMNS] : FILLED;
  const unfilled = columns.filter((c) => !filled.includes(c.name) && !c.defaulted && !c.nullable);
  if (unfilled.length > 0)
    throw new Error(
      `events has column(s) ${unfilled.map((c) => c.name).join(', ')} this loader does not fill (bench/src/support/scale-log.ts)`,
    );
  const missing = FILLED.filter((name) => !columns.some((c) => c.name === name));
  if (missing.length > 0)
    throw new Error(`events lacks ${missing.join(', ')} (bench/src/support/scale-log.ts)`);

  const heads = new Map<string, Head>();

  /** Drops what is not the primary key; returns the statements that make it again. */
  async function dropSecondary(table: string): Promise<string[]> {
    const { rows } = await db.query<{ drop: string; create: string }>(
      `SELECT format('ALTER TABLE %I DROP CONSTRAINT %I', $1::text, k.conname) AS drop,
              format('ALTER TABLE %I ADD CONSTRAINT %I %s', $1::text, k.conname, pg_get_constraintdef(k.oid)) AS create
         FROM pg_constraint k WHERE k.conrelid = $1::regclass AND k.contype IN ('u', 'x')
       UNION ALL
       SELECT format('DROP INDEX %I', c.relname), pg_get_indexdef(i.indexrelid)
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = $1::regclass AND NOT i.indisprimary
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
      [table],
    );
    for (const r of rows) await db.query(r.drop);
    return rows.map((r) => r.create);
  }

  return {
    /**
     * Appends users `from`..`to - 1` (about `perUser` events each), in groups of `interleave`
     * users whose events alternate in the log. Returns the users' ids and the events written.
     */
    async load(
      from: number,
      to: number,
      perUser: number,
      { interleave = 50, onProgress }: { interleave?: number; onProgress?: (events: number) => void } = {},
    ): Promise<{ userIds: string[]; events: number }> {
      const {
        rows: [end],
      } = await db.query<{ position: string }>(
        'SELECT coalesce(max(global_position), 0)::text AS position FROM events',
      );
      let position = Number(end?.position ?? 0);
      const restore = [
        ...(await dropSecondary('events')),
        ...(linkInRow ? [] : await dropSecondary(CHAIN_TABLE)),
      ];
      await db.query('ALTER TABLE events ALTER COLUMN global_position SET GENERATED BY DEFAULT');
      await db.query('ALTER TABLE events DISABLE TRIGGER USER');
      const eventsCopy = copyInto(url, 'events', filled);
      const chainCopy = linkInRow
        ? null
        : copyInto(url, CHAIN_TABLE, ['global_position', 'user_id', 'seq', 'hash']);
      const userIds: string[] = [];
      let written = 0;
      try {
        for (let group = from; group < to; group += interleave) {
          const users = [];
          for (let u = group; u < Math.min(to, group + interleave); u++) {
            const made = userEvents(u, perUser, now);
            userIds.push(made.userId);
            users.push(made.rows);
          }
          const longest = Math.max(...users.map((rows) => rows.length));
          for (let i = 0; i < longest; i++) {
            for (const rows of users) {
              const row = rows[i];
              if (!row) continue;
              position += 1;
              const data = jsonbText(row.data);
              const metadata = jsonbText(row.metadata);
              const line = `${position}\t${row.eventId}\t${row.streamId}\t${row.version}\t${row.type}\t${copyText(data)}\t${copyText(metadata)}`;
              const owner = eventOwner(row.streamId, row.data, row.metadata);
              if (owner === null) {
                await eventsCopy.write(linkInRow ? `${line}\t\\N\t\\N\t\\N\n` : `${line}\n`);
                continue;
              }
              const head = heads.get(owner) ?? { seq: 0, hash: '0'.repeat(64) };
              // chainLinkText's text, with data and metadata printed once (for the row and the link).
              const text = [head.hash, row.eventId, row.streamId, row.version, row.type, data, metadata].join(
                '|',
              );
              head.seq += 1;
              head.hash = createHash('sha256').update(text).digest('hex');
              heads.set(owner, head);
              if (chainCopy) {
                await eventsCopy.write(`${line}\n`);
                await chainCopy.write(`${position}\t${copyText(owner)}\t${head.seq}\t${head.hash}\n`);
              } else {
                await eventsCopy.write(`${line}\t${copyText(owner)}\t${head.seq}\t${head.hash}\n`);
              }
            }
          }
          written += users.reduce((n, rows) => n + rows.length, 0);
          onProgress?.(written);
        }
        await Promise.all([eventsCopy.end(), chainCopy?.end()]);
      } finally {
        await db.query('ALTER TABLE events ENABLE TRIGGER USER');
        await db.query('ALTER TABLE events ALTER COLUMN global_position SET GENERATED ALWAYS');
        await db.query(
          `SELECT setval(pg_get_serial_sequence('events', 'global_position'), (SELECT coalesce(max(global_position), 1) FROM events))`,
        );
        await db.transaction(async (tx) => {
          await tx.query("SET LOCAL maintenance_work_mem = '512MB'");
          for (const create of restore) await tx.query(create);
        });
      }
      const owners = linkInRow ? [] : [...heads];
      for (let i = 0; i < owners.length; i += 5000) {
        const slice = owners.slice(i, i + 5000);
        await db.query(
          `INSERT INTO event_chain_heads (user_id, seq, hash)
           SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[])
           ON CONFLICT (user_id) DO UPDATE SET seq = EXCLUDED.seq, hash = EXCLUDED.hash`,
          [slice.map(([o]) => o), slice.map(([, h]) => h.seq), slice.map(([, h]) => h.hash)],
        );
      }
      await db.query('ANALYZE events');
      if (!linkInRow) await db.query(`ANALYZE ${CHAIN_TABLE}`);
      return { userIds, events: written };
    },
  };
}
