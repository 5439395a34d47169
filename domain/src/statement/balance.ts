import { formatInr, type Paise } from '../money';
import type { StatementRow } from './row';

export type BalanceMismatch = {
  index: number;
  line: number;
  /** The balance the account would have after this row. */
  expected: Paise;
  /** The balance the file states after this row. */
  stated: Paise;
  /** stated − expected. */
  difference: Paise;
  message: string;
};

export type BalanceCheck = {
  status: 'ok' | 'mismatch' | 'no-balance';
  /** Rows whose stated balance was compared. */
  checkedRows: number;
  firstMismatch: BalanceMismatch | null;
};

/**
 * Follows the running balance through the file's transactions, oldest first (a file listed
 * newest first is walked backwards), from `openingBalance` (the account's balance before the
 * first row) or, when that is null, from the statement's own opening-balance row or else the
 * first stated balance less its row. Each stated balance must equal the running one; the first
 * that does not is reported with the amount it differs by. A dropped or doubled row, or a row
 * that could not be read, shows up here.
 */
export function checkRunningBalance(
  rows: readonly StatementRow[],
  openingBalance: Paise | null,
): BalanceCheck {
  const transactions = rows.filter((row) => row.kind !== 'opening-balance');
  const dated = transactions.filter((row) => row.date !== null);
  const newestFirst = dated.length > 1 && dated[0]!.date! > dated.at(-1)!.date!;
  const ordered = newestFirst ? [...transactions].reverse() : transactions;
  const stated = ordered.filter((row) => row.kind === 'transaction' && row.balance !== null);
  if (stated.length === 0) return { status: 'no-balance', checkedRows: 0, firstMismatch: null };
  let running =
    openingBalance ??
    rows.find((row) => row.kind === 'opening-balance' && row.balance !== null)?.balance ??
    stated[0]!.balance! - stated[0]!.amount;
  let checkedRows = 0;
  for (const row of ordered) {
    if (row.kind !== 'transaction') continue;
    running += row.amount;
    if (row.balance === null) continue;
    checkedRows += 1;
    if (row.balance !== running) {
      const difference = row.balance - running;
      return {
        status: 'mismatch',
        checkedRows,
        firstMismatch: {
          index: row.index,
          line: row.line,
          expected: running,
          stated: row.balance,
          difference,
          message: `The file states a balance of ${formatInr(row.balance)} after line ${row.line}; the running balance is ${formatInr(running)} (a difference of ${formatInr(difference)})`,
        },
      };
    }
  }
  return { status: 'ok', checkedRows, firstMismatch: null };
}
