import {
  ACCOUNT_EVENT_TYPES,
  type AccountDetails,
  type AccountEvent,
  type AccountKind,
  accountDetailsOf,
  assertNever,
  IMPORT_EVENT_TYPES,
  type Paise,
  type RecordedEvent,
  TRANSACTION_EVENT_TYPES,
  TRANSFER_EVENT_TYPES,
  type TransactionEvent,
  type TransferEvent,
  toDecimalString,
  toPaise,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { defineProjection } from '../runner/define';
import { foldRows, type RowChange } from '../runner/row-projection';
import { withImportedTransactions } from '../transactions/imported';

type Versioned = Pick<RecordedEvent, 'streamVersion'>;

/** One row of `accounts`; money in paise. */
export type AccountRow = Readonly<
  AccountDetails & {
    id: string;
    userId: string;
    createdAt: string;
    updatedAt: string;
    deleted: boolean;
    version: number;
  }
>;

/** A transaction as an account's register holds it: the amount signed (credit +, debit -). */
export type AccountTransactionRow = Readonly<{
  id: string;
  userId: string;
  /** null: no longer in an account (kept so a late redelivery cannot put it back). */
  accountId: string | null;
  entryDate: string;
  amount: Paise;
  notes: string;
  createdAt: string;
  version: number;
}>;

export type TransferRow = Readonly<{
  id: string;
  userId: string;
  fromAccountId: string;
  toAccountId: string;
  amount: Paise;
  transferDate: string;
  notes: string;
  createdAt: string;
  deleted: boolean;
  version: number;
}>;

/** Pure fold of an account's events (a deleted account stays, flagged). */
export function evolveAccountRow(row: AccountRow | null, event: AccountEvent & Versioned): AccountRow | null {
  if (row && event.streamVersion <= row.version) return row;
  const version = event.streamVersion;
  switch (event.type) {
    case 'AccountOpened': {
      const d = event.data;
      return {
        id: d.accountId,
        userId: d.userId,
        ...accountDetailsOf(d),
        createdAt: d.openedAt,
        updatedAt: d.openedAt,
        deleted: false,
        version,
      };
    }
    case 'AccountUpdated':
      return row ? { ...row, ...event.data.changes, updatedAt: event.data.updatedAt, version } : null;
    case 'AccountDeleted':
      return row ? { ...row, deleted: true, updatedAt: event.data.deletedAt, version } : null;
    case 'AccountImportMappingSaved':
      // Not a field of the account the list shows; its version moves (the ETag of the next edit).
      return row ? { ...row, version } : null;
    default:
      return assertNever(event);
  }
}

/** Pure fold of a transaction's events into its register row (null: never in an account). */
export function evolveAccountTransaction(
  row: AccountTransactionRow | null,
  event: TransactionEvent & Versioned,
): AccountTransactionRow | null {
  if (row && event.streamVersion <= row.version) return row;
  const version = event.streamVersion;
  const entry = (
    fields: {
      accountId?: string | null;
      transactionType: 'C' | 'D';
      amount: Paise;
      transactionDate: string;
      notes: string;
    },
    createdAt: string,
  ): AccountTransactionRow | null =>
    !row && !fields.accountId
      ? null
      : {
          id: event.data.transactionId,
          userId: event.data.userId,
          accountId: fields.accountId ?? null,
          entryDate: fields.transactionDate,
          amount: fields.transactionType === 'C' ? fields.amount : -fields.amount,
          notes: fields.notes,
          createdAt: row?.createdAt ?? createdAt,
          version,
        };
  switch (event.type) {
    case 'TransactionRecorded':
      return entry(event.data, event.data.recordedAt);
    case 'TransactionUpdated':
      return entry({ ...event.data.previous, ...event.data.changes }, event.data.updatedAt);
    case 'TransactionDeleted':
      return row ? { ...row, accountId: null, version } : null;
    default:
      return assertNever(event);
  }
}

export function evolveTransferRow(
  row: TransferRow | null,
  event: TransferEvent & Versioned,
): TransferRow | null {
  if (row && event.streamVersion <= row.version) return row;
  const version = event.streamVersion;
  switch (event.type) {
    case 'TransferRecorded': {
      const d = event.data;
      return {
        id: d.transferId,
        userId: d.userId,
        fromAccountId: d.fromAccountId,
        toAccountId: d.toAccountId,
        amount: d.amount,
        transferDate: d.transferDate,
        notes: d.notes,
        createdAt: d.recordedAt,
        deleted: false,
        version,
      };
    }
    case 'TransferDeleted':
      return row ? { ...row, deleted: true, version } : null;
    default:
      return assertNever(event);
  }
}

const INSTANT = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const ACCOUNT_COLUMNS = `id::text AS id, user_id, name, kind, bank_id, bank_name, last_four,
  opening_balance::text AS opening_balance, to_char(opening_date, 'YYYY-MM-DD') AS opening_date,
  ${INSTANT('created_at')} AS created_at, ${INSTANT('updated_at')} AS updated_at, deleted, version`;

export type DbAccountRow = {
  id: string;
  user_id: string;
  name: string;
  kind: AccountKind;
  bank_id: number | null;
  bank_name: string | null;
  last_four: string | null;
  opening_balance: string;
  opening_date: string;
  created_at: string;
  updated_at: string;
  deleted: boolean;
  version: number;
};

export const accountFromDb = (r: DbAccountRow): AccountRow => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  kind: r.kind,
  bankId: r.bank_id === null ? null : Number(r.bank_id),
  bankName: r.bank_name,
  lastFour: r.last_four,
  openingBalance: toPaise(r.opening_balance),
  openingDate: r.opening_date,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  deleted: r.deleted,
  version: Number(r.version),
});

/** One table's part of the read model: how to load the rows a batch touches and save the changed ones. */
type Table<E, Row> = {
  keyOf: (event: E) => string;
  evolve: (row: Row | null, event: E) => Row | null;
  load: (tx: Queryable, keys: readonly string[]) => Promise<Map<string, Row>>;
  save: (tx: Queryable, rows: readonly Row[]) => Promise<void>;
};

async function applyTable<E, Row>(tx: Queryable, events: readonly E[], table: Table<E, Row>): Promise<void> {
  if (events.length === 0) return;
  const before = await table.load(tx, [...new Set(events.map(table.keyOf))]);
  const changes: RowChange<Row>[] = foldRows(before, events, table.keyOf, table.evolve);
  // No fold here ever removes a row once stored (tombstones), so every change is a row to save.
  const saved = changes.flatMap((c) => (c.after ? [c.after] : []));
  if (saved.length > 0) await table.save(tx, saved);
}

const money = (paise: Paise) => toDecimalString(paise);

const accountsTable: Table<AccountEvent & Versioned, AccountRow> = {
  keyOf: (e) => e.data.accountId,
  evolve: evolveAccountRow,
  async load(tx, ids) {
    const { rows } = await tx.query<DbAccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, accountFromDb(r)]));
  },
  async save(tx, rows) {
    await tx.query(
      `INSERT INTO accounts (id, user_id, name, kind, bank_id, bank_name, last_four, opening_balance, opening_date,
         created_at, updated_at, deleted, version)
       SELECT r."id", r."userId", r."name", r."kind", r."bankId", r."bankName", r."lastFour", r."openingBalance",
              r."openingDate", r."createdAt", r."updatedAt", r."deleted", r."version"
         FROM jsonb_to_recordset($1::jsonb) AS r("id" uuid, "userId" text, "name" text, "kind" text,
              "bankId" integer, "bankName" text, "lastFour" text, "openingBalance" numeric, "openingDate" date,
              "createdAt" timestamptz, "updatedAt" timestamptz, "deleted" boolean, "version" integer)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, kind = EXCLUDED.kind, bank_id = EXCLUDED.bank_id,
         bank_name = EXCLUDED.bank_name, last_four = EXCLUDED.last_four,
         opening_balance = EXCLUDED.opening_balance, opening_date = EXCLUDED.opening_date,
         updated_at = EXCLUDED.updated_at, deleted = EXCLUDED.deleted, version = EXCLUDED.version`,
      [JSON.stringify(rows.map((r) => ({ ...r, openingBalance: money(r.openingBalance) })))],
    );
  },
};

type DbAccountTransaction = {
  id: string;
  user_id: string;
  account_id: string | null;
  entry_date: string;
  amount: string;
  notes: string;
  created_at: string;
  version: number;
};

const transactionsTable: Table<TransactionEvent & Versioned, AccountTransactionRow> = {
  keyOf: (e) => e.data.transactionId,
  evolve: evolveAccountTransaction,
  async load(tx, ids) {
    const { rows } = await tx.query<DbAccountTransaction>(
      `SELECT id::text AS id, user_id, account_id::text AS account_id, to_char(entry_date, 'YYYY-MM-DD') AS entry_date,
              amount::text AS amount, notes, ${INSTANT('created_at')} AS created_at, version
         FROM account_transactions WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(
      rows.map((r) => [
        r.id,
        {
          id: r.id,
          userId: r.user_id,
          accountId: r.account_id,
          entryDate: r.entry_date,
          amount: toPaise(r.amount),
          notes: r.notes,
          createdAt: r.created_at,
          version: Number(r.version),
        },
      ]),
    );
  },
  async save(tx, rows) {
    await tx.query(
      `INSERT INTO account_transactions (id, user_id, account_id, entry_date, amount, notes, created_at, version)
       SELECT r."id", r."userId", r."accountId", r."entryDate", r."amount", r."notes", r."createdAt", r."version"
         FROM jsonb_to_recordset($1::jsonb) AS r("id" uuid, "userId" text, "accountId" uuid, "entryDate" date,
              "amount" numeric, "notes" text, "createdAt" timestamptz, "version" integer)
       ON CONFLICT (id) DO UPDATE SET account_id = EXCLUDED.account_id, entry_date = EXCLUDED.entry_date,
         amount = EXCLUDED.amount, notes = EXCLUDED.notes, version = EXCLUDED.version`,
      [JSON.stringify(rows.map((r) => ({ ...r, amount: money(r.amount) })))],
    );
  },
};

type DbTransfer = {
  id: string;
  user_id: string;
  from_account_id: string;
  to_account_id: string;
  amount: string;
  transfer_date: string;
  notes: string;
  created_at: string;
  deleted: boolean;
  version: number;
};

export const TRANSFER_COLUMNS = `id::text AS id, user_id, from_account_id::text AS from_account_id,
  to_account_id::text AS to_account_id, amount::text AS amount,
  to_char(transfer_date, 'YYYY-MM-DD') AS transfer_date, notes, ${INSTANT('created_at')} AS created_at,
  deleted, version`;

export const transferFromDb = (r: DbTransfer): TransferRow => ({
  id: r.id,
  userId: r.user_id,
  fromAccountId: r.from_account_id,
  toAccountId: r.to_account_id,
  amount: toPaise(r.amount),
  transferDate: r.transfer_date,
  notes: r.notes,
  createdAt: r.created_at,
  deleted: r.deleted,
  version: Number(r.version),
});
export type { DbTransfer };

const transfersTable: Table<TransferEvent & Versioned, TransferRow> = {
  keyOf: (e) => e.data.transferId,
  evolve: evolveTransferRow,
  async load(tx, ids) {
    const { rows } = await tx.query<DbTransfer>(
      `SELECT ${TRANSFER_COLUMNS} FROM account_transfers WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, transferFromDb(r)]));
  },
  async save(tx, rows) {
    await tx.query(
      `INSERT INTO account_transfers (id, user_id, from_account_id, to_account_id, amount, transfer_date, notes,
         created_at, deleted, version)
       SELECT r."id", r."userId", r."fromAccountId", r."toAccountId", r."amount", r."transferDate", r."notes",
              r."createdAt", r."deleted", r."version"
         FROM jsonb_to_recordset($1::jsonb) AS r("id" uuid, "userId" text, "fromAccountId" uuid,
              "toAccountId" uuid, "amount" numeric, "transferDate" date, "notes" text, "createdAt" timestamptz,
              "deleted" boolean, "version" integer)
       ON CONFLICT (id) DO UPDATE SET deleted = EXCLUDED.deleted, version = EXCLUDED.version`,
      [JSON.stringify(rows.map((r) => ({ ...r, amount: money(r.amount) })))],
    );
  },
};

const ACCOUNT_TYPES = new Set<string>(ACCOUNT_EVENT_TYPES);
const TRANSACTION_TYPES = new Set<string>(TRANSACTION_EVENT_TYPES);

/** Accounts, the transactions in them and transfers: three tables, each one read and one write per batch. */
export const accountsProjection = defineProjection({
  name: 'accounts',
  handles: [
    ...ACCOUNT_EVENT_TYPES,
    ...TRANSACTION_EVENT_TYPES,
    ...TRANSFER_EVENT_TYPES,
    ...IMPORT_EVENT_TYPES,
  ],
  tables: ['accounts', 'account_transactions', 'account_transfers'],
  migrations: new URL('./migrations', import.meta.url),
  // Its writes look rows up by id.
  deferredIndexes: [
    'accounts_by_user',
    'account_transactions_by_account',
    'account_transfers_from',
    'account_transfers_to',
    'account_transfers_by_user',
  ],
  async apply(tx, batch) {
    // A statement import's rows are folded as the transactions they record (issue 30).
    const events = withImportedTransactions(batch);
    const accounts: RecordedEvent<AccountEvent>[] = [];
    const transactions: RecordedEvent<TransactionEvent>[] = [];
    const transfers: RecordedEvent<TransferEvent>[] = [];
    for (const event of events) {
      if (ACCOUNT_TYPES.has(event.type)) accounts.push(event as RecordedEvent<AccountEvent>);
      else if (TRANSACTION_TYPES.has(event.type)) transactions.push(event as RecordedEvent<TransactionEvent>);
      else transfers.push(event as RecordedEvent<TransferEvent>);
    }
    await applyTable(tx, accounts, accountsTable);
    await applyTable(tx, transactions, transactionsTable);
    await applyTable(tx, transfers, transfersTable);
  },
});
