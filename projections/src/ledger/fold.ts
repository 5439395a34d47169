/**
 * The monthly ledger's pure fold: transactions become entries one to one, a loan's latest
 * schedule becomes its EMI entries, and the month counts move with them. `projector.ts` reads
 * and writes its rows; the as-of replay runs the same fold through it.
 */
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
  upcastLoanEvent,
} from '@kosh/domain';

/**
 * What an entry is: a transaction of the book, an EMI, or a loan's part-payment or foreclosure
 * (which are no EMIs: the EMI card does not count them).
 */
export type LedgerEntryKind = 'transaction' | 'emi' | 'prepayment' | 'foreclosure';

/** One row of `ledger_entries`: what a ledger month shows. Money in paise. */
export type LedgerEntry = Readonly<{
  entryId: string;
  userId: string;
  date: string;
  side: 'C' | 'D';
  kind: LedgerEntryKind;
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

/** A payment marked or matched for EMI `n`: its entry shows the day and amount paid. */
export type LedgerPaidEmi = Readonly<{
  markId: string;
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

export const LEDGER_EVENT_TYPES = [...TRANSACTION_EVENT_TYPES, ...loanStreamEventTypes, ...catalogEventTypes];
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

/** A new schedule version replaces the loan's EMIs; an older or repeated one changes nothing. */
function withSchedule(
  loan: LedgerLoan | null,
  version: number,
  schedule: { version: number; generatedAt: string },
  emis: () => EmiInstalment[],
): LedgerLoan | null {
  if (!loan) return null;
  if (schedule.version <= loan.scheduleVersion) return { ...loan, version };
  return {
    ...loan,
    scheduleVersion: schedule.version,
    emis: emis(),
    generatedAt: schedule.generatedAt,
    version,
  };
}

/** Pure fold of a loan's events into what its EMI entries are made from. */
export function evolveLedgerLoan(
  loan: LedgerLoan | null,
  stored: LoanStreamEvent & Versioned,
): LedgerLoan | null {
  if (loan && stored.streamVersion <= loan.version) return loan;
  const version = stored.streamVersion;
  const event = upcastLoanEvent(stored);
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
      const d = event.data;
      return withSchedule(loan, version, d, () =>
        d.rows.map((r) => ({ n: r.paymentNumber, date: r.emiDate, emi: r.emi })),
      );
    }
    case 'ScheduleRevised': {
      const d = event.data;
      return withSchedule(loan, version, d, () =>
        d.rows.map((r) =>
          r.kind === 'emi'
            ? { n: r.paymentNumber, date: r.date, emi: r.amount }
            : { n: r.paymentNumber, date: r.date, emi: r.amount, kind: r.kind },
        ),
      );
    }
    case 'EmiMarkedPaid':
    case 'EmiMatched': {
      if (!loan) return null;
      const { markId, paymentNumber: n, paidOn, amount } = event.data;
      if (loan.paid.some((p) => p.markId === markId)) return { ...loan, version };
      const transactionId = event.type === 'EmiMatched' ? event.data.transactionId : null;
      return { ...loan, paid: [...loan.paid, { markId, n, paidOn, amount, transactionId }], version };
    }
    case 'EmiMarkUndone':
    case 'EmiMatchReleased': {
      if (!loan) return null;
      const { markId } = event.data;
      return { ...loan, paid: loan.paid.filter((p) => p.markId !== markId), version };
    }
    // Paid on their due dates for their amounts, or not paid: the entries stay as scheduled.
    case 'EmisMarkedPaidUpTo':
    case 'EmiMarkedMissed':
    case 'PreEmiInterestPaid':
    case 'ConstructionCompleted':
      return loan;
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
} as const satisfies Record<NonNullable<EmiInstalment['kind']>, string>;

/** The entry kind of a schedule payment: pre-EMI interest is paid as the EMIs are. */
const PAYMENT_KINDS = {
  prepayment: 'prepayment',
  foreclosure: 'foreclosure',
  'pre-emi-interest': 'emi',
} as const satisfies Record<NonNullable<EmiInstalment['kind']>, LedgerEntryKind>;

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
 * part-payments, a foreclosure). An EMI marked or matched paid shows on the day of its last
 * payment and for what was paid; once the marks are undone or released it shows as scheduled.
 */
export function emiEntries(loan: LedgerLoan | null, names: CatalogNames): LedgerEntry[] {
  if (!loan || loan.deleted) return [];
  const bank = names.banks.get(loan.bankId) ?? `Bank ${loan.bankId}`;
  const loanType = names.loanTypes.get(loan.loanTypeId) ?? `Loan type ${loan.loanTypeId}`;
  const paid = new Map<number, { paidOn: string; amount: Paise }>();
  for (const p of loan.paid) {
    const before = paid.get(p.n);
    paid.set(p.n, {
      paidOn: before && before.paidOn > p.paidOn ? before.paidOn : p.paidOn,
      amount: (before?.amount ?? 0) + p.amount,
    });
  }
  const of = loan.emis.filter((emi) => emi.kind === undefined).length;
  return loan.emis.map((emi, index) => {
    const payment = emi.kind === undefined ? paid.get(emi.n) : undefined;
    return {
      entryId: emi.kind === undefined ? emiEntryId(loan.loanId, emi.n) : `emi-${loan.loanId}-x${index}`,
      userId: loan.userId,
      date: payment?.paidOn ?? emi.date,
      side: 'D',
      kind: emi.kind === undefined ? 'emi' : PAYMENT_KINDS[emi.kind],
      particulars:
        emi.kind === undefined
          ? emiParticulars(emi.n, of, bank, loanType, loan.accountNumber)
          : `${PAYMENT_LABELS[emi.kind]} — ${bank} ${loanType} · ${loan.accountNumber}`,
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
  // A month's loan payments (EMIs, part-payments, a foreclosure) and its transactions.
  if (entry.kind === 'transaction') counts.transactions += sign;
  else counts.emis += sign;
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
      case 'EmiMarkedPaid':
      case 'EmisMarkedPaidUpTo':
      case 'EmiMatched':
      case 'EmiMarkedMissed':
      case 'EmiMarkUndone':
      case 'EmiMatchReleased':
      case 'PreEmiInterestPaid':
      case 'ConstructionCompleted': {
        const id = event.data.loanId;
        const loan = loans.has(id) ? (loans.get(id) ?? null) : (before.loans.get(id) ?? null);
        const after = evolveLedgerLoan(loan, event);
        loans.set(id, after);
        // A matched debit hides while its EMI shows; it shows again when the match is released
        // or the loan deleted (a deleted debit has no entry left to show).
        const match = (transactionId: string | null, matchedTo: string | null) => {
          if (transactionId === null) return;
          const entry = entries.has(transactionId)
            ? entries.get(transactionId)
            : before.entries.get(transactionId);
          if (entry) entries.set(transactionId, { ...entry, matchedTo });
        };
        const upcast = upcastLoanEvent(event);
        if (upcast.type === 'EmiMatched' && after !== loan)
          match(upcast.data.transactionId, emiEntryId(id, upcast.data.paymentNumber));
        if (upcast.type === 'EmiMatchReleased' && after !== loan) match(upcast.data.transactionId, null);
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

/** What a batch must read: the entries and loans its events name, and the loans it deletes. */
export function touchedBy(events: readonly LedgerEvent[]): {
  entryIds: Set<string>;
  loanIds: string[];
  deletedLoanIds: Set<string>;
} {
  const entryIds = new Set<string>();
  const loanIds = new Set<string>();
  const deletedLoanIds = new Set<string>();
  for (const event of events) {
    // A match or its release names both its loan and the debit.
    if ('loanId' in event.data) loanIds.add(event.data.loanId);
    if ('transactionId' in event.data && event.data.transactionId !== null)
      entryIds.add(event.data.transactionId);
    if (event.type === 'LoanDeleted') deletedLoanIds.add(event.data.loanId);
  }
  return { entryIds, loanIds: [...loanIds], deletedLoanIds };
}

/**
 * The entries a folded batch takes out and puts in: a changed transaction's entry, and every
 * EMI entry of a changed loan (a regenerated schedule, a deleted loan, a new lender or account
 * number in the particulars). `removedIds`: transaction entries gone without a replacement.
 */
export function entryChanges(
  before: LedgerBatchState,
  result: LedgerBatchResult,
  names: CatalogNames,
): { removedEntries: LedgerEntry[]; addedEntries: LedgerEntry[]; removedIds: string[] } {
  const removedEntries: LedgerEntry[] = [];
  const addedEntries: LedgerEntry[] = [];
  const removedIds: string[] = [];
  for (const [id, entry] of result.transactionEntries) {
    const old = before.entries.get(id);
    if (old) removedEntries.push(old);
    if (entry) addedEntries.push(entry);
    else if (old) removedIds.push(id);
  }
  // Only counted, never shown: the names of the entries taken out do not matter.
  const noNames: CatalogNames = { banks: new Map(), loanTypes: new Map() };
  for (const [id, loan] of result.loans) {
    removedEntries.push(...emiEntries(before.loans.get(id) ?? null, noNames));
    addedEntries.push(...emiEntries(loan, names));
  }
  return { removedEntries, addedEntries, removedIds };
}
