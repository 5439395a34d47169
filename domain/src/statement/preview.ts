import type { Paise } from '../money';
import { type BalanceCheck, checkRunningBalance } from './balance';
import { type EmiDue, emiKey, matchEmi } from './emi';
import { classifyDuplicates, fingerprintKeys, type RowFingerprint } from './fingerprint';
import { type ParsedNarration, parseNarration } from './narration';
import type { StatementRow } from './row';
import { findPossibleDuplicate, type HandEnteredTransaction } from './similar';

export type PreviewRowStatus =
  | 'new'
  | 'duplicate'
  | 'possible-duplicate'
  | 'emi-match'
  | 'error'
  | 'opening-balance';

/** A statement row as the import preview shows it: what it is, why, and what it would record. */
export type PreviewRow = StatementRow & {
  status: PreviewRowStatus;
  reason: string;
  /** Keys to store with the row once it is imported (empty for rows that are not transactions). */
  fingerprints: string[];
  parsed: ParsedNarration | null;
  possibleDuplicateOf: HandEnteredTransaction | null;
  emi: EmiDue | null;
};

export type StatementPreview = {
  rows: PreviewRow[];
  counts: Record<PreviewRowStatus, number>;
  balance: BalanceCheck;
};

export type PreviewInput = {
  rows: readonly StatementRow[];
  /** Fingerprint keys of every row imported into the account before. */
  knownFingerprints: ReadonlySet<string>;
  /** `fingerprintRows(rows)`, when the caller computed them to look `knownFingerprints` up. */
  fingerprints?: readonly (RowFingerprint | null)[];
  handEntered?: readonly HandEnteredTransaction[];
  emisDue?: readonly EmiDue[];
  /** The account's balance before the statement's first row; null to trust the file's own. */
  openingBalance?: Paise | null;
};

/**
 * Gives every row a status and a reason, in this order: an unreadable row is an `error`; a row
 * the account already holds is a `duplicate`; a row that probably repeats a hand-entered
 * transaction is a `possible-duplicate` (for the user to decide, never skipped); a debit that
 * pays an EMI due is an `emi-match`; anything else is `new`. Also checks the running balance.
 */
export function previewStatement(input: PreviewInput): StatementPreview {
  const verdicts = classifyDuplicates(input.rows, input.knownFingerprints, input.fingerprints);
  const claimedTransactions = new Set<string>();
  const claimedEmis = new Set<string>();
  const counts: Record<PreviewRowStatus, number> = {
    new: 0,
    duplicate: 0,
    'possible-duplicate': 0,
    'emi-match': 0,
    error: 0,
    'opening-balance': 0,
  };
  const rows = input.rows.map((row, i): PreviewRow => {
    const verdict = verdicts[i];
    let status: PreviewRowStatus;
    let reason: string;
    let parsed: ParsedNarration | null = null;
    let possibleDuplicateOf: HandEnteredTransaction | null = null;
    let emi: EmiDue | null = null;
    if (row.kind === 'opening-balance') {
      status = 'opening-balance';
      reason = 'Opening balance row, not a transaction';
    } else if (row.kind === 'error' || !verdict) {
      status = 'error';
      reason = row.error?.message ?? 'The row could not be read';
    } else {
      parsed = parseNarration(row.narration);
      if (verdict.status === 'duplicate') {
        status = 'duplicate';
        reason = verdict.reason;
      } else {
        const possible = findPossibleDuplicate(row, input.handEntered ?? [], claimedTransactions);
        const match = possible ? null : matchEmi(row, input.emisDue ?? [], claimedEmis);
        if (possible) {
          claimedTransactions.add(possible.transaction.id);
          [status, reason, possibleDuplicateOf] = [
            'possible-duplicate',
            possible.reason,
            possible.transaction,
          ];
        } else if (match) {
          claimedEmis.add(emiKey(match.emi));
          [status, reason, emi] = ['emi-match', match.reason, match.emi];
        } else [status, reason] = ['new', 'Not in the account yet'];
      }
    }
    counts[status] += 1;
    const fingerprints = verdict ? fingerprintKeys(verdict.fingerprint) : [];
    return { ...row, status, reason, fingerprints, parsed, possibleDuplicateOf, emi };
  });
  return { rows, counts, balance: checkRunningBalance(input.rows, input.openingBalance ?? null) };
}
