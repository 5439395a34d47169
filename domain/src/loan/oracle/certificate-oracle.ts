/**
 * Test-only: EMI standings and interest-certificate figures derived from the rules issue 27 states
 * (and the documented comments of payments.ts and certificate.ts), without calling production.
 */
import { nearest, type OracleRow } from './exact';

/** A mark as the borrower made it; the oracle keeps its own shape, independent of production's. */
export type OracleMark =
  | Readonly<{
      id: string;
      kind: 'paid' | 'matched';
      emi: number;
      on: string;
      amount: number;
      txn: string | null;
    }>
  | Readonly<{ id: string; kind: 'up-to'; upTo: string; emis: readonly number[] }>
  | Readonly<{ id: string; kind: 'missed'; emi: number }>
  | Readonly<{ id: string; kind: 'pre-emi'; on: string; amount: number }>;

/** One step of a payment history: a mark, an undo (or release) of one, or construction completed. */
export type OracleStep =
  | Readonly<{ kind: 'mark'; mark: OracleMark }>
  | Readonly<{ kind: 'undo'; id: string; release: boolean }>
  | Readonly<{ kind: 'construction'; on: string }>;

export type OracleLedger = { marks: OracleMark[]; constructionOn: string | null };

/** The marks after the steps: a mark is live until undone; the last completion date counts. */
export function foldSteps(steps: readonly OracleStep[]): OracleLedger {
  const ledger: OracleLedger = { marks: [], constructionOn: null };
  for (const step of steps) {
    if (step.kind === 'mark') ledger.marks.push(step.mark);
    else if (step.kind === 'undo') ledger.marks = ledger.marks.filter((m) => m.id !== step.id);
    else ledger.constructionOn = step.on;
  }
  return ledger;
}

export type OraclePayment = Readonly<{
  markId: string;
  via: 'paid' | 'paid-up-to' | 'matched';
  paidOn: string;
  amount: number;
  transactionId: string | null;
}>;

export type OracleStanding = Readonly<{
  paymentNumber: number;
  dueDate: string;
  amount: number;
  state: 'paid' | 'auto-debited' | 'partly-paid' | 'missed' | 'overdue' | 'due';
  paid: number;
  remainder: number;
  paidOn: string | null;
  overdue: boolean;
  payments: readonly OraclePayment[];
  missedMarkId: string | null;
}>;

/**
 * Each EMI on `today`. Its payments: hand marks and matches of it, and every paid-up-to mark
 * naming it (for the EMI's amount, on its due date). Covered on the first day the payments made
 * up to that day reach its amount. Nothing marked, auto-debit on and the day come: paid on its
 * due date. Otherwise short: partly paid (overdue once past), missed (marked bounced), overdue
 * (past, not auto-debited) or due.
 */
export function oracleStandings(
  rows: readonly OracleRow[],
  marks: readonly OracleMark[],
  autoDebit: boolean,
  today: string,
): OracleStanding[] {
  const upTo = marks.flatMap((m) => (m.kind === 'up-to' ? [{ id: m.id, emis: new Set(m.emis) }] : []));
  return rows
    .filter((row) => row.kind === 'emi')
    .map((row) => oracleStanding(row, marks, upTo, autoDebit, today));
}

/** One EMI's standing (`upTo`: the paid-up-to marks, each with the set of EMIs it names). */
export function oracleStanding(
  row: OracleRow,
  marks: readonly OracleMark[],
  upTo: readonly Readonly<{ id: string; emis: ReadonlySet<number> }>[] | null,
  autoDebit: boolean,
  today: string,
): OracleStanding {
  const payments: OraclePayment[] = [];
  let missedMarkId: string | null = null;
  for (const m of marks) {
    if ((m.kind === 'paid' || m.kind === 'matched') && m.emi === row.paymentNumber)
      payments.push({ markId: m.id, via: m.kind, paidOn: m.on, amount: m.amount, transactionId: m.txn });
    if (
      m.kind === 'up-to' &&
      (upTo === null
        ? m.emis.includes(row.paymentNumber)
        : upTo.some((u) => u.id === m.id && u.emis.has(row.paymentNumber)))
    )
      payments.push({
        markId: m.id,
        via: 'paid-up-to',
        paidOn: row.date,
        amount: row.amount,
        transactionId: null,
      });
    if (m.kind === 'missed' && m.emi === row.paymentNumber) missedMarkId = m.id;
  }
  // Earliest day first; marks of one day in the order they were made.
  const ordered = payments
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.paidOn.localeCompare(b.p.paidOn) || a.i - b.i)
    .map(({ p }) => p);
  const base = {
    paymentNumber: row.paymentNumber,
    dueDate: row.date,
    amount: row.amount,
    payments: ordered,
    missedMarkId,
  };
  if (ordered.length === 0 && missedMarkId === null && autoDebit && row.date <= today)
    return {
      ...base,
      state: 'auto-debited',
      paid: row.amount,
      remainder: 0,
      paidOn: row.date,
      overdue: false,
    };
  const paid = ordered.reduce((total, p) => total + p.amount, 0);
  const days = [...new Set(ordered.map((p) => p.paidOn))].sort();
  const coveredOn =
    days.find(
      (day) => ordered.filter((p) => p.paidOn <= day).reduce((t, p) => t + p.amount, 0) >= row.amount,
    ) ?? null;
  const remainder = paid >= row.amount ? 0 : row.amount - paid;
  const past = row.date < today;
  const state: OracleStanding['state'] =
    remainder === 0
      ? 'paid'
      : paid > 0
        ? 'partly-paid'
        : missedMarkId !== null
          ? 'missed'
          : past && !autoDebit
            ? 'overdue'
            : 'due';
  const overdue = state === 'missed' || state === 'overdue' || (state === 'partly-paid' && past);
  return { ...base, state, paid, remainder, paidOn: remainder === 0 ? coveredOn : null, overdue };
}

export type OracleFigures = Readonly<{
  interest: number;
  principal: number;
  gst: number;
  charges: number;
  emisDue: number;
  emisPaid: number;
  unpaidEmis: readonly Readonly<{
    paymentNumber: number;
    dueDate: string;
    amount: number;
    remainder: number;
    state: OracleStanding['state'];
  }>[];
  preEmiInterest: Readonly<{
    total: number;
    completedOn: string | null;
    instalment: number | null;
    deductible: number;
  }>;
}>;

/** The April-to-March year (by its first calendar year) holding `date`. */
const fyOf = (date: string): number => {
  const year = Number(date.slice(0, 4));
  return date >= `${year}-04-01` ? year : year - 1;
};

/**
 * Financial year `fy` (April `fy` to March `fy + 1`). Due basis for interest: every EMI due in the
 * year and the interest part of each part-payment or foreclosure in it; GST on that interest.
 * Paid basis for principal: EMIs covered in the year, plus principal prepaid in it. Charges apart.
 * Unpaid: EMIs due in the year still overdue on `today`. Pre-EMI interest: the total paid, a fifth
 * deducted in each of the five years from construction's; each of the first four the fifth to the
 * nearest paisa (never more than is left), the fifth year the rest, so the five add up to the total.
 */
export function oracleFigures(
  rows: readonly OracleRow[],
  standings: readonly OracleStanding[],
  ledger: OracleLedger,
  fy: number,
): OracleFigures {
  const from = `${fy}-04-01`;
  const to = `${fy + 1}-03-31`;
  const within = (date: string | null) => date !== null && from <= date && date <= to;
  const emiRows = rows.filter((r) => r.kind === 'emi' && within(r.date));
  const otherRows = rows.filter((r) => r.kind !== 'emi' && within(r.date));
  const covered = standings.filter((s) => within(s.paidOn));
  const principalOf = new Map(
    rows.filter((r) => r.kind === 'emi').map((r) => [r.paymentNumber, r.principal]),
  );
  const add = (list: readonly OracleRow[], key: 'interest' | 'gst' | 'principal' | 'charge') =>
    list.reduce((t, r) => t + r[key], 0);
  const total = ledger.marks.reduce((t, m) => t + (m.kind === 'pre-emi' ? m.amount : 0), 0);
  const completedOn = ledger.constructionOn;
  const year = completedOn === null ? null : fy - fyOf(completedOn) + 1;
  const instalment = total > 0 && year !== null && year >= 1 && year <= 5 ? year : null;
  const fifth = Number(nearest(BigInt(total), 5n));
  const parts: number[] = [];
  for (let k = 1; k <= 4; k++) parts.push(Math.min(fifth, total - parts.reduce((t, p) => t + p, 0)));
  parts.push(total - parts.reduce((t, p) => t + p, 0));
  return {
    interest: add(emiRows, 'interest') + add(otherRows, 'interest'),
    principal:
      covered.reduce((t, s) => t + principalOf.get(s.paymentNumber)!, 0) + add(otherRows, 'principal'),
    gst: add(emiRows, 'gst') + add(otherRows, 'gst'),
    charges: add(otherRows, 'charge'),
    emisDue: emiRows.length,
    emisPaid: covered.length,
    unpaidEmis: standings
      .filter((s) => within(s.dueDate) && s.overdue)
      .map(({ paymentNumber, dueDate, amount, remainder, state }) => ({
        paymentNumber,
        dueDate,
        amount,
        remainder,
        state,
      })),
    preEmiInterest: {
      total,
      completedOn,
      instalment,
      deductible: instalment === null ? 0 : parts[instalment - 1]!,
    },
  };
}
