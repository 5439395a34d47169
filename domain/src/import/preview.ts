/**
 * The preview of a statement import (issue 30 items 4, 5, 6, 7): each row of the file judged
 * against the account: new, a duplicate of a row imported before, possibly a repeat of a
 * hand-entered transaction (the user decides), a loan EMI's payment, or an error naming its line
 * and column; the file's running balance checked from the account's balance before the first
 * row. Pure: the route brings what it read (fingerprints, typed entries, unpaid EMIs, balance).
 * The statement library (../statement) reads the file and judges its rows; this module keeps
 * its verdicts in the import's terms (wire status names, decisions) and adds what the book cannot hold.
 */
import { formatInr, type Paise } from '../money';
import type { BalanceCheck } from '../statement/balance';
import type { EmiDue } from '../statement/emi';
import type { RowFingerprint } from '../statement/fingerprint';
import { previewStatement, type PreviewRow as StatementPreviewRow } from '../statement/preview';
import type { StatementRow } from '../statement/row';
import type { HandEnteredTransaction } from '../statement/similar';
import { TRANSACTION_AMOUNT_MAX } from '../validation/transaction';

export type PreviewStatus =
  | 'new'
  | 'duplicate'
  | 'possible_duplicate'
  | 'emi_match'
  | 'error'
  | 'opening_balance';
/** import / skip; null: the user has not decided yet (a possible duplicate must be decided). */
export type PreviewDecision = 'import' | 'skip' | null;

/** A row of an import's preview as stored and answered: the statement's verdict and the user's decision. */
export type ImportPreviewRow = {
  index: number;
  line: number;
  status: PreviewStatus;
  reason: string | null;
  date: string | null;
  /** Signed: credit +, debit −. */
  amount: Paise;
  balance: Paise | null;
  narration: string;
  notes: string;
  channel: string | null;
  counterparty: string | null;
  reference: string | null;
  fingerprints: string[];
  possibleDuplicateOf: { transactionId: string; date: string; notes: string } | null;
  emi: { loanId: string; emiNumber: number; dueDate: string; amount: Paise } | null;
  decision: PreviewDecision;
  /** For an EMI match: record the debit as that EMI's payment (default true). */
  matchEmi: boolean;
};

export type PreviewCounts = Record<Exclude<PreviewStatus, 'opening_balance'>, number>;

export type ImportPreview = { rows: ImportPreviewRow[]; counts: PreviewCounts; balance: BalanceCheck };

export type PreviewContext = {
  /** Fingerprint keys of every row imported into the account before. */
  known: ReadonlySet<string>;
  /** `fingerprintRows(rows)`, when the caller computed them to look `known` up. */
  fingerprints?: readonly (RowFingerprint | null)[];
  handEntered: readonly HandEnteredTransaction[];
  emis: readonly EmiDue[];
  /** The account's balance at the end of the day before the file's first row (null: unknown). */
  openingBalance: Paise | null;
};

const DEFAULT_DECISION: Record<PreviewStatus, PreviewDecision> = {
  new: 'import',
  duplicate: 'skip',
  possible_duplicate: null,
  emi_match: 'import',
  error: 'skip',
  opening_balance: 'skip',
};

/** The statement library's verdict (statement/preview.ts) as the import keeps it. */
function fromStatement(row: StatementPreviewRow): ImportPreviewRow {
  const status = row.status.replace('-', '_') as PreviewStatus;
  const message = row.reason;
  const where = row.error
    ? row.error.column == null
      ? `Line ${row.error.line}`
      : `Line ${row.error.line}, column ${row.error.column}`
    : `Line ${row.line}`;
  // A row the book cannot hold (amount 0 or past the spec's maximum) is an error too.
  const unfit =
    row.kind !== 'transaction' || status === 'duplicate'
      ? null
      : row.amount === 0
        ? `Line ${row.line}: the amount is 0`
        : Math.abs(row.amount) > TRANSACTION_AMOUNT_MAX
          ? `Line ${row.line}: the amount exceeds ${formatInr(TRANSACTION_AMOUNT_MAX)}`
          : null;
  const final: PreviewStatus = unfit ? 'error' : status;
  const reason =
    unfit ?? (status === 'error' && !/^line \d/i.test(message) ? `${where}: ${message}` : message);
  const emi = final === 'emi_match' ? row.emi : null;
  return {
    index: row.index,
    line: row.line,
    status: final,
    reason,
    date: row.date,
    amount: row.amount,
    balance: row.balance,
    narration: row.narration,
    notes: row.parsed?.notes ?? row.narration.replace(/\s+/g, ' ').trim(),
    channel: row.parsed?.channel ?? null,
    counterparty: row.parsed?.counterparty ?? null,
    reference: row.reference ?? row.parsed?.reference ?? null,
    fingerprints: row.fingerprints,
    possibleDuplicateOf:
      final === 'possible_duplicate' && row.possibleDuplicateOf
        ? {
            transactionId: row.possibleDuplicateOf.id,
            date: row.possibleDuplicateOf.date,
            notes: row.possibleDuplicateOf.text,
          }
        : null,
    emi: emi
      ? { loanId: emi.loanId, emiNumber: emi.emiNumber, dueDate: emi.dueDate, amount: emi.amount }
      : null,
    decision: DEFAULT_DECISION[final],
    matchEmi: emi !== null,
  };
}

/** How many rows of each status (the opening-balance row is not counted). */
export function countPreviewRows(rows: readonly ImportPreviewRow[]): PreviewCounts {
  const counts: PreviewCounts = { new: 0, duplicate: 0, possible_duplicate: 0, emi_match: 0, error: 0 };
  for (const row of rows) if (row.status !== 'opening_balance') counts[row.status] += 1;
  return counts;
}

/** Judges every row of a read statement (statement/preview.ts); decisions start at each status's default. */
export function buildImportPreview(rows: readonly StatementRow[], context: PreviewContext): ImportPreview {
  const preview = previewStatement({
    rows,
    knownFingerprints: context.known,
    ...(context.fingerprints && { fingerprints: context.fingerprints }),
    handEntered: context.handEntered,
    emisDue: context.emis,
    openingBalance: context.openingBalance,
  });
  const out = preview.rows.map(fromStatement);
  return { rows: out, counts: countPreviewRows(out), balance: preview.balance };
}

export type RowDecisionInput = { index: number; decision: 'import' | 'skip'; matchEmi?: boolean };

/** The preview with the user's decisions applied; a row that cannot be imported says why. */
export function applyDecisions(
  rows: readonly ImportPreviewRow[],
  decisions: readonly RowDecisionInput[],
): { rows: ImportPreviewRow[]; errors: { field: string; message: string }[] } {
  const byIndex = new Map(rows.map((row, i) => [row.index, i]));
  const next = [...rows];
  const errors: { field: string; message: string }[] = [];
  decisions.forEach((d, k) => {
    const at = byIndex.get(d.index);
    if (at === undefined) {
      errors.push({ field: `decisions[${k}].index`, message: 'No such row in this preview' });
      return;
    }
    const row = next[at]!;
    if (d.decision === 'import' && (row.status === 'error' || row.status === 'opening_balance')) {
      errors.push({
        field: `decisions[${k}].decision`,
        message: `Line ${row.line} cannot be imported: ${row.reason}`,
      });
      return;
    }
    next[at] = { ...row, decision: d.decision, matchEmi: row.emi !== null && (d.matchEmi ?? row.matchEmi) };
  });
  return { rows: next, errors };
}

/** The rows still waiting for the user's decision (possible duplicates not decided). */
export function undecidedRows(rows: readonly ImportPreviewRow[]): ImportPreviewRow[] {
  return rows.filter((row) => row.decision === null);
}
