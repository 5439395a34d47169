import type { StatementRow } from './row';

/**
 * The identity of an imported row within its account, as strings a read model can index.
 * `occurrence`: date, signed amount, the narration (spaces collapsed) and how many identical
 * rows came before it in the same file, so two genuine ₹20 teas on one day are two rows while
 * the same statement (or an overlapping one) read again gives the same keys. `bank`: the FITID
 * (which the bank promises is unique per account), or the bank's reference/UTR with date and
 * amount; null when the file has none.
 */
export type RowFingerprint = { occurrence: string; bank: string | null };

function narrationKey(narration: string): string {
  return narration.replace(/\s+/g, ' ').trim().toUpperCase();
}

/** Fingerprints of a file's rows in order; null for rows that are not transactions. */
export function fingerprintRows(rows: readonly StatementRow[]): (RowFingerprint | null)[] {
  const seen = new Map<string, number>();
  return rows.map((row) => {
    if (row.kind !== 'transaction') return null;
    const base = `${row.date}|${row.amount}|${narrationKey(row.narration)}`;
    const occurrence = seen.get(base) ?? 0;
    seen.set(base, occurrence + 1);
    const bank =
      row.reference === null
        ? null
        : row.referenceKind === 'fitid'
          ? `fitid|${row.reference}`
          : `ref|${row.date}|${row.amount}|${row.reference.toUpperCase()}`;
    return { occurrence: `row|${base}|${occurrence}`, bank };
  });
}

/** The keys to store for an imported row, so later imports can find it. */
export function fingerprintKeys(fingerprint: RowFingerprint): string[] {
  return fingerprint.bank === null ? [fingerprint.occurrence] : [fingerprint.occurrence, fingerprint.bank];
}

export type DuplicateVerdict =
  | { status: 'new'; fingerprint: RowFingerprint }
  | { status: 'duplicate'; fingerprint: RowFingerprint; reason: string };

/**
 * Which rows of a file this account already holds. `known` holds the keys of every row imported
 * into the account before. A row with a FITID is judged by its FITID alone (also against earlier
 * rows of the same file); any other row is a duplicate when its bank reference or its
 * occurrence key is known. Null for rows that are not transactions.
 */
export function classifyDuplicates(
  rows: readonly StatementRow[],
  known: ReadonlySet<string>,
  /** `fingerprintRows(rows)` when the caller has it already (it looked `known` up by them). */
  fingerprints: readonly (RowFingerprint | null)[] = fingerprintRows(rows),
): (DuplicateVerdict | null)[] {
  const inFile = new Set<string>();
  return fingerprints.map((fingerprint) => {
    if (fingerprint === null) return null;
    const verdict = judge(fingerprint, known, inFile);
    if (fingerprint.bank !== null) inFile.add(fingerprint.bank);
    return verdict;
  });
}

function judge(
  fingerprint: RowFingerprint,
  known: ReadonlySet<string>,
  inFile: ReadonlySet<string>,
): DuplicateVerdict {
  const bank = fingerprint.bank;
  if (bank?.startsWith('fitid|')) {
    const fitid = bank.slice('fitid|'.length);
    if (known.has(bank))
      return { status: 'duplicate', fingerprint, reason: `FITID ${fitid} was imported before` };
    if (inFile.has(bank))
      return { status: 'duplicate', fingerprint, reason: `FITID ${fitid} appears earlier in this file` };
    return { status: 'new', fingerprint };
  }
  if (bank !== null && known.has(bank)) {
    return {
      status: 'duplicate',
      fingerprint,
      reason: 'A row with this reference, date and amount was imported before',
    };
  }
  if (known.has(fingerprint.occurrence)) {
    return {
      status: 'duplicate',
      fingerprint,
      reason: 'This row (same date, amount, narration and place among identical rows) was imported before',
    };
  }
  return { status: 'new', fingerprint };
}
