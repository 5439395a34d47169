import {
  assertNever,
  type CatalogEvent,
  catalogEventTypes,
  type LoanStreamEvent,
  loanStreamEventTypes,
  type Paise,
  type RecordedEvent,
  TRANSACTION_EVENT_TYPES,
  type TransactionEvent,
  toDecimalString,
  toPaise,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store/db';
import type { Projection } from '../runner/types';

/** One row of `ledger_entries`: what a ledger month shows. Money in paise. */
export type LedgerEntry = Readonly<{
  entryId: string;
  userId: string;
  date: string;
  side: 'C' | 'D';
  kind: 'transaction' | 'emi';
  particulars: string;
  amount: Paise;
  createdAt: string;
  loanId: string | null;
  version: number;
  /**
   * Transaction entries: the EMI entry this debit was matched to (the EMI is marked paid by it).
   * A matched transaction is not shown, so the payment counts once, as the EMI.
   */
  matchedTo: string | null;
}>;

/** A payment of the latest schedule: an EMI (no kind), or a part-payment, foreclosure or pre-EMI interest. */
export type EmiInstalment = Readonly<{
  n: number;
  date: string;
  emi: Paise;
  kind?: 'prepayment' | 'foreclosure' | 'pre-emi-interest';
}>;

/** An EMI marked paid: its entry shows the day and amount paid. */
export type LedgerPaidEmi = Readonly<{
  n: number;
  paidOn: string;
  amount: Paise;
  transactionId: string | null;
}>;

/** One row of `ledger_loans`. */
export type LedgerLoan = Readonly<{
  loanId: string;
  userId: string;
  bankId: number;
  loanTypeId: number;
  accountNumber: string;
  deleted: boolean;
  scheduleVersion: number;
  emis: readonly EmiInstalment[];
  paid: readonly LedgerPaidEmi[];
  generatedAt: string | null;
  version: number;
}>;

/** Names of lenders and loan types by id. */
export type CatalogNames = { banks: ReadonlyMap<number, string>; loanTypes: ReadonlyMap<number, string> };

type Versioned = Pick<RecordedEvent, 'streamVersion'>;
export type LedgerEvent = (TransactionEvent | LoanStreamEvent | CatalogEvent) & Versioned;

/** Pure fold of a transaction's events into its ledger entry (null before recording and once deleted). */
export function evolveTransactionEntry(
  entry: LedgerEntry | null,
  event: TransactionEvent & Versioned,
): LedgerEntry | null {
  if (entry && event.streamVersion <= entry.version) return entry;
  switch (event.type) {
    case 'TransactionRecorded': {
      const d = event.data;
      return {
        entryId: d.transactionId,
        userId: d.userId,
        date: d.transactionDate,
        side: d.transactionType,
        kind: 'transaction',
        particulars: d.notes,
        amount: d.amount,
        createdAt: d.recordedAt,
        loanId: null,
        version: event.streamVersion,
        matchedTo: null,
      };
    }
    case 'TransactionUpdated': {
      if (!entry) return null;
      const c = event.data.changes;
      return {
        ...entry,
        date: c.transactionDate ?? entry.date,
        side: c.transactionType ?? entry.side,
        particulars: c.notes ?? entry.particulars,
        amount: c.amount ?? entry.amount,
        version: event.streamVersion,
      };
    }
    case 'TransactionDeleted':
      return null;
    default:
      return assertNever(event);
  }
}

/** Pure fold of a loan's events into what its EMI entries are made from. */
export function evolveLedgerLoan(
  loan: LedgerLoan | null,
  event: LoanStreamEvent & Versioned,
): LedgerLoan | null {
  if (loan && event.streamVersion <= loan.version) return loan;
  const version = event.streamVersion;
  switch (event.type) {
    case 'LoanCreated': {
      const d = event.data;
      return {
        loanId: d.loanId,
        userId: d.userId,
        bankId: d.bankId,
        loanTypeId: d.loanTypeId,
        accountNumber: d.accountNumber,
        deleted: false,
        scheduleVersion: 0,
        emis: [],
        paid: [],
        generatedAt: null,
        version,
      };
    }
    case 'LoanUpdated': {
      if (!loan) return null;
      const c = event.data.changes;
      return {
        ...loan,
        bankId: c.bankId ?? loan.bankId,
        loanTypeId: c.loanTypeId ?? loan.loanTypeId,
        accountNumber: c.accountNumber ?? loan.accountNumber,
        version,
      };
    }
    case 'ScheduleGenerated': {
      if (!loan) return null;
      const d = event.data;
      if (d.version <= loan.scheduleVersion) return { ...loan, version };
      return {
        ...loan,
        scheduleVersion: d.version,
        emis: d.rows.map((r) => ({ n: r.paymentNumber, date: r.emiDate, emi: r.emi })),
        generatedAt: d.generatedAt,
        version,
      };
    }
    case 'ScheduleRevised': {
      if (!loan) return null;
      const d = event.data;
      if (d.version <= loan.scheduleVersion) return { ...loan, version };
      return {
        ...loan,
        scheduleVersion: d.version,
        emis: d.rows.map((r) =>
          r.kind === 'emi'
            ? { n: r.paymentNumber, date: r.date, emi: r.amount }
            : { n: r.paymentNumber, date: r.date, emi: r.amount, kind: r.kind },
        ),
        generatedAt: d.generatedAt,
        version,
      };
    }
    case 'EmiMarkedPaid': {
      if (!loan) return null;
      const { paymentNumber: n, paidOn, amount, transactionId } = event.data;
      if (loan.paid.some((p) => p.n === n)) return { ...loan, version };
      return { ...loan, paid: [...loan.paid, { n, paidOn, amount, transactionId }], version };
    }
    // The schedule revision that follows each change is what moves the entries.
    case 'LoanPrepaid':
    case 'LoanRateChanged':
    case 'EmiOverridden':
    case 'LoanForeclosed':
      return loan;
    case 'LoanDeleted':
      return loan ? { ...loan, deleted: true, emis: [], version } : null;
    default:
      return assertNever(event);
  }
}

/** Id of the ledger entry of EMI `n` of a loan. */
export const emiEntryId = (loanId: string, n: number): string => `emi-${loanId}-${n}`;

const PAYMENT_LABELS = {
  prepayment: 'Part-payment',
  foreclosure: 'Foreclosure',
  'pre-emi-interest': 'Pre-EMI interest',
} as const;

/** 'EMI 12/240 · HDFC Bank Home Loan · AC12345'. */
export function emiParticulars(
  n: number,
  of: number,
  bankName: string,
  loanTypeName: string,
  account: string,
) {
  return `EMI ${n}/${of} · ${bankName} ${loanTypeName} · ${account}`;
}

/**
 * The debit entries a loan puts in the ledger: one per payment of its latest schedule (EMIs,
 * part-payments, a foreclosure). A paid EMI shows on the day and for the amount it was paid.
 */
export function emiEntries(loan: LedgerLoan | null, names: CatalogNames): LedgerEntry[] {
  if (!loan || loan.deleted) return [];
  const bank = names.banks.get(loan.bankId) ?? `Bank ${loan.bankId}`;
  const loanType = names.loanTypes.get(loan.loanTypeId) ?? `Loan type ${loan.loanTypeId}`;
  const paid = new Map(loan.paid.map((p) => [p.n, p]));
  const of = loan.emis.filter((emi) => emi.kind === undefined).length;
  return loan.emis.map((emi, index) => {
    const payment = emi.kind === undefined ? paid.get(emi.n) : undefined;
    return {
      entryId: emi.kind === undefined ? emiEntryId(loan.loanId, emi.n) : `emi-${loan.loanId}-x${index}`,
      userId: loan.userId,
      date: payment?.paidOn ?? emi.date,
      side: 'D',
      kind: 'emi',
      particulars:
        emi.kind === undefined
          ? emiParticulars(emi.n, of, bank, loanType, loan.accountNumber)
          : `${PAYMENT_LABELS[emi.kind]} · ${bank} ${loanType} · ${loan.accountNumber}`,
      amount: payment?.amount ?? emi.emi,
      createdAt: loan.generatedAt ?? '1970-01-01T00:00:00.000Z',
      loanId: loan.loanId,
      version: 0,
      matchedTo: null,
    };
  });
}

/** Change of entry counts per user and month. Key: `${userId}|${year}|${month}`. */
export type PeriodDelta = Map<string, { transactions: number; emis: number }>;

function countEntry(delta: PeriodDelta, entry: LedgerEntry, sign: 1 | -1): void {
  if (entry.matchedTo !== null) return;
  const key = `${entry.userId}|${Number(entry.date.slice(0, 4))}|${Number(entry.date.slice(5, 7))}`;
  const counts = delta.get(key) ?? { transactions: 0, emis: 0 };
  if (entry.kind === 'emi') counts.emis += sign;
  else counts.transactions += sign;
  delta.set(key, counts);
}

export type LedgerBatchState = {
  entries: ReadonlyMap<string, LedgerEntry>;
  loans: ReadonlyMap<string, LedgerLoan>;
};

export type LedgerBatchResult = {
  /** Transaction entries whose fold changed (null = remove). */
  transactionEntries: Map<string, LedgerEntry | null>;
  /** Loans whose fold changed: their EMI entries are replaced. */
  loans: Map<string, LedgerLoan>;
  banks: Map<number, { name: string; ownerUserId: string | null }>;
  loanTypes: Map<number, { name: string; ownerUserId: string | null }>;
};

/** Folds a batch over the rows it touches (pure); the caller writes the result. */
export function foldLedgerBatch(before: LedgerBatchState, events: readonly LedgerEvent[]): LedgerBatchResult {
  const entries = new Map<string, LedgerEntry | null>();
  const loans = new Map<string, LedgerLoan | null>();
  const banks = new Map<number, { name: string; ownerUserId: string | null }>();
  const loanTypes = new Map<number, { name: string; ownerUserId: string | null }>();
  for (const event of events) {
    switch (event.type) {
      case 'TransactionRecorded':
      case 'TransactionUpdated':
      case 'TransactionDeleted': {
        const id = event.data.transactionId;
        const entry = entries.has(id) ? (entries.get(id) ?? null) : (before.entries.get(id) ?? null);
        entries.set(id, evolveTransactionEntry(entry, event));
        break;
      }
      case 'LoanCreated':
      case 'LoanUpdated':
      case 'LoanDeleted':
      case 'ScheduleGenerated':
      case 'ScheduleRevised':
      case 'LoanPrepaid':
      case 'LoanRateChanged':
      case 'EmiOverridden':
      case 'LoanForeclosed':
      case 'EmiMarkedPaid': {
        const id = event.data.loanId;
        const loan = loans.has(id) ? (loans.get(id) ?? null) : (before.loans.get(id) ?? null);
        const after = evolveLedgerLoan(loan, event);
        loans.set(id, after);
        // A matched debit hides while its EMI shows; it shows again when the loan is deleted.
        const match = (transactionId: string | null, matchedTo: string | null) => {
          if (transactionId === null) return;
          const entry = entries.has(transactionId)
            ? entries.get(transactionId)
            : before.entries.get(transactionId);
          if (entry) entries.set(transactionId, { ...entry, matchedTo });
        };
        if (event.type === 'EmiMarkedPaid' && after !== loan)
          match(event.data.transactionId, emiEntryId(id, event.data.paymentNumber));
        if (event.type === 'LoanDeleted' && loan) for (const p of loan.paid) match(p.transactionId, null);
        break;
      }
      case 'BankAdded':
        banks.set(event.data.bankId, { name: event.data.bankName, ownerUserId: event.data.ownerUserId });
        break;
      case 'LoanTypeAdded':
        loanTypes.set(event.data.loanTypeId, {
          name: event.data.typeName,
          ownerUserId: event.data.ownerUserId,
        });
        break;
      default:
        assertNever(event);
    }
  }
  const changedEntries = new Map(
    [...entries].filter(([id, entry]) => entry !== (before.entries.get(id) ?? null)),
  );
  const changedLoans = new Map<string, LedgerLoan>();
  for (const [id, loan] of loans) {
    if (loan && loan !== before.loans.get(id)) changedLoans.set(id, loan);
  }
  return { transactionEntries: changedEntries, loans: changedLoans, banks, loanTypes };
}

/** Counts of the entries that left and arrived, per user and month. */
export function periodDelta(removed: readonly LedgerEntry[], added: readonly LedgerEntry[]): PeriodDelta {
  const delta: PeriodDelta = new Map();
  for (const entry of removed) countEntry(delta, entry, -1);
  for (const entry of added) countEntry(delta, entry, 1);
  return delta;
}

const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const ENTRY_COLUMNS = `entry_id, user_id, to_char(entry_date, 'YYYY-MM-DD') AS entry_date, side, kind,
  particulars, amount::text AS amount, ${ISO('created_at')} AS created_at, loan_id, version, matched_to`;

type DbLedgerEntry = {
  entry_id: string;
  user_id: string;
  entry_date: string;
  side: 'C' | 'D';
  kind: 'transaction' | 'emi';
  particulars: string;
  amount: string;
  created_at: string;
  loan_id: string | null;
  version: number;
  matched_to: string | null;
};

function entryFromDb(r: DbLedgerEntry): LedgerEntry {
  return {
    entryId: r.entry_id,
    userId: r.user_id,
    date: r.entry_date,
    side: r.side,
    kind: r.kind,
    particulars: r.particulars,
    amount: toPaise(r.amount),
    createdAt: r.created_at,
    loanId: r.loan_id,
    version: Number(r.version),
    matchedTo: r.matched_to,
  };
}

type DbLedgerLoan = {
  loan_id: string;
  user_id: string;
  bank_id: number;
  loan_type_id: number;
  account_number: string;
  deleted: boolean;
  schedule_version: number;
  emis: EmiInstalment[];
  paid: LedgerPaidEmi[];
  generated_at: string | null;
  version: number;
};

/** The entries and loans a batch touches; a deleted loan's matched debits come with it. */
async function loadState(
  tx: Queryable,
  entryIds: Set<string>,
  loanIds: string[],
  deletedLoanIds: Set<string>,
): Promise<LedgerBatchState> {
  const loanRows =
    loanIds.length === 0
      ? { rows: [] as DbLedgerLoan[] }
      : await tx.query<DbLedgerLoan>(
          `SELECT loan_id, user_id, bank_id, loan_type_id, account_number, deleted, schedule_version, emis, paid,
                  ${ISO('generated_at')} AS generated_at, version
             FROM ledger_loans WHERE loan_id = ANY($1::text[])`,
          [loanIds],
        );
  for (const r of loanRows.rows) {
    if (!deletedLoanIds.has(r.loan_id)) continue;
    for (const p of r.paid) if (p.transactionId !== null) entryIds.add(p.transactionId);
  }
  const entryRows =
    entryIds.size === 0
      ? { rows: [] as DbLedgerEntry[] }
      : await tx.query<DbLedgerEntry>(
          `SELECT ${ENTRY_COLUMNS} FROM ledger_entries WHERE entry_id = ANY($1::text[])`,
          [[...entryIds]],
        );
  return {
    entries: new Map(entryRows.rows.map((r) => [r.entry_id, entryFromDb(r)])),
    loans: new Map(
      loanRows.rows.map((r) => [
        r.loan_id,
        {
          loanId: r.loan_id,
          userId: r.user_id,
          bankId: r.bank_id,
          loanTypeId: r.loan_type_id,
          accountNumber: r.account_number,
          deleted: r.deleted,
          scheduleVersion: r.schedule_version,
          emis: r.emis,
          paid: r.paid,
          generatedAt: r.generated_at,
          version: r.version,
        },
      ]),
    ),
  };
}

async function saveNames(tx: Queryable, kind: 'bank' | 'loan_type', names: LedgerBatchResult['banks']) {
  if (names.size === 0) return;
  const records = [...names].map(([id, n]) => ({ id, name: n.name, owner: n.ownerUserId }));
  await tx.query(
    `INSERT INTO ledger_names (kind, id, name, owner_user_id)
     SELECT $1, r."id", r."name", r."owner" FROM jsonb_to_recordset($2::jsonb) AS r("id" integer, "name" text, "owner" text)
     ON CONFLICT (kind, id) DO UPDATE SET name = EXCLUDED.name, owner_user_id = EXCLUDED.owner_user_id`,
    [kind, JSON.stringify(records)],
  );
}

async function loadNames(tx: Queryable, loans: Iterable<LedgerLoan>): Promise<CatalogNames> {
  const bankIds = new Set<number>();
  const typeIds = new Set<number>();
  for (const loan of loans) {
    bankIds.add(loan.bankId);
    typeIds.add(loan.loanTypeId);
  }
  const banks = new Map<number, string>();
  const loanTypes = new Map<number, string>();
  if (bankIds.size === 0) return { banks, loanTypes };
  const { rows } = await tx.query<{ kind: string; id: number; name: string }>(
    `SELECT kind, id, name FROM ledger_names
      WHERE (kind = 'bank' AND id = ANY($1::int[])) OR (kind = 'loan_type' AND id = ANY($2::int[]))`,
    [[...bankIds], [...typeIds]],
  );
  for (const r of rows) (r.kind === 'bank' ? banks : loanTypes).set(r.id, r.name);
  return { banks, loanTypes };
}

async function saveEntries(tx: Queryable, entries: readonly LedgerEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const records = entries.map((e) => ({ ...e, amount: toDecimalString(e.amount) }));
  await tx.query(
    `INSERT INTO ledger_entries
       (entry_id, user_id, entry_date, side, kind, particulars, amount, created_at, loan_id, version, matched_to)
     SELECT r."entryId", r."userId", r."date", r."side", r."kind", r."particulars", r."amount", r."createdAt",
            r."loanId", r."version", r."matchedTo"
       FROM jsonb_to_recordset($1::jsonb) AS r("entryId" text, "userId" text, "date" date, "side" char(1),
            "kind" text, "particulars" text, "amount" numeric, "createdAt" timestamptz, "loanId" text,
            "version" integer, "matchedTo" text)
     ON CONFLICT (entry_id) DO UPDATE SET
       entry_date = EXCLUDED.entry_date, side = EXCLUDED.side, particulars = EXCLUDED.particulars,
       amount = EXCLUDED.amount, version = EXCLUDED.version, matched_to = EXCLUDED.matched_to`,
    [JSON.stringify(records)],
  );
}

async function saveLoans(tx: Queryable, loans: readonly LedgerLoan[]): Promise<void> {
  if (loans.length === 0) return;
  await tx.query(
    `INSERT INTO ledger_loans (loan_id, user_id, bank_id, loan_type_id, account_number, deleted, schedule_version,
                               emis, paid, generated_at, version)
     SELECT r."loanId", r."userId", r."bankId", r."loanTypeId", r."accountNumber", r."deleted",
            r."scheduleVersion", r."emis", r."paid", r."generatedAt", r."version"
       FROM jsonb_to_recordset($1::jsonb) AS r("loanId" text, "userId" text, "bankId" integer,
            "loanTypeId" integer, "accountNumber" text, "deleted" boolean, "scheduleVersion" integer,
            "emis" jsonb, "paid" jsonb, "generatedAt" timestamptz, "version" integer)
     ON CONFLICT (loan_id) DO UPDATE SET
       bank_id = EXCLUDED.bank_id, loan_type_id = EXCLUDED.loan_type_id,
       account_number = EXCLUDED.account_number, deleted = EXCLUDED.deleted,
       schedule_version = EXCLUDED.schedule_version, emis = EXCLUDED.emis, paid = EXCLUDED.paid,
       generated_at = EXCLUDED.generated_at, version = EXCLUDED.version`,
    [JSON.stringify(loans)],
  );
}

async function savePeriods(tx: Queryable, delta: PeriodDelta): Promise<void> {
  const records = [...delta]
    .filter(([, d]) => d.transactions !== 0 || d.emis !== 0)
    .map(([key, d]) => {
      const [userId, year, month] = key.split('|');
      return { userId, year: Number(year), month: Number(month), transactions: d.transactions, emis: d.emis };
    });
  if (records.length === 0) return;
  const json = JSON.stringify(records);
  await tx.query(
    `INSERT INTO ledger_periods AS p (user_id, year, month, transaction_count, emi_count)
     SELECT r."userId", r."year", r."month", r."transactions", r."emis"
       FROM jsonb_to_recordset($1::jsonb) AS r("userId" text, "year" integer, "month" integer,
            "transactions" integer, "emis" integer)
     ON CONFLICT (user_id, year, month) DO UPDATE SET
       transaction_count = p.transaction_count + EXCLUDED.transaction_count,
       emi_count = p.emi_count + EXCLUDED.emi_count`,
    [json],
  );
  await tx.query(
    `DELETE FROM ledger_periods p USING jsonb_to_recordset($1::jsonb) AS r("userId" text, "year" integer, "month" integer)
      WHERE p.user_id = r."userId" AND p.year = r."year" AND p.month = r."month"
        AND p.transaction_count = 0 AND p.emi_count = 0`,
    [json],
  );
}

export const LEDGER_EVENT_TYPES = [...TRANSACTION_EVENT_TYPES, ...loanStreamEventTypes, ...catalogEventTypes];
const handled = new Set<string>(LEDGER_EVENT_TYPES);

/**
 * Transactions become entries one to one; a loan's change replaces all its EMI entries (a
 * regenerated schedule, a deleted loan, a new lender or account number in the particulars).
 * The month counts move with the entries in the same batch.
 */
export const ledgerProjection: Projection = {
  name: 'ledger',
  handles: LEDGER_EVENT_TYPES,
  tables: ['ledger_entries', 'ledger_loans', 'ledger_names', 'ledger_periods'],
  async apply(tx, events) {
    const ledgerEvents = events.filter((e) => handled.has(e.type)) as unknown as LedgerEvent[];
    const entryIds = new Set<string>();
    const loanIds = new Set<string>();
    const deletedLoanIds = new Set<string>();
    for (const event of ledgerEvents) {
      // EmiMarkedPaid names both its loan and the debit it was matched to (or null).
      if ('loanId' in event.data) loanIds.add(event.data.loanId);
      if ('transactionId' in event.data && event.data.transactionId !== null)
        entryIds.add(event.data.transactionId);
      if (event.type === 'LoanDeleted') deletedLoanIds.add(event.data.loanId);
    }
    const before = await loadState(tx, entryIds, [...loanIds], deletedLoanIds);
    const result = foldLedgerBatch(before, ledgerEvents);
    await saveNames(tx, 'bank', result.banks);
    await saveNames(tx, 'loan_type', result.loanTypes);

    const names = await loadNames(tx, result.loans.values());
    const removedEntries: LedgerEntry[] = [];
    const addedEntries: LedgerEntry[] = [];
    const removedIds: string[] = [];
    for (const [id, entry] of result.transactionEntries) {
      const old = before.entries.get(id);
      if (old) removedEntries.push(old);
      if (entry) addedEntries.push(entry);
      else if (old) removedIds.push(id);
    }
    const emptyNames: CatalogNames = { banks: new Map(), loanTypes: new Map() };
    for (const [id, loan] of result.loans) {
      removedEntries.push(...emiEntries(before.loans.get(id) ?? null, emptyNames));
      addedEntries.push(...emiEntries(loan, names));
    }
    if (result.loans.size > 0) {
      await tx.query('DELETE FROM ledger_entries WHERE loan_id = ANY($1::text[])', [
        [...result.loans.keys()],
      ]);
    }
    if (removedIds.length > 0) {
      await tx.query('DELETE FROM ledger_entries WHERE entry_id = ANY($1::text[])', [removedIds]);
    }
    await saveEntries(tx, addedEntries);
    await saveLoans(tx, [...result.loans.values()]);
    await savePeriods(tx, periodDelta(removedEntries, addedEntries));
  },
};
