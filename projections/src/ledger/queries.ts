import { type Paise, toPaise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import type { LedgerEntryKind } from './fold';

/** What a ledger month shows of an entry. */
export type LedgerLine = {
  id: string;
  date: string;
  side: 'C' | 'D';
  kind: LedgerEntryKind;
  particulars: string;
  amount: Paise;
};

type DbLedgerLine = Omit<LedgerLine, 'amount'> & { amount: string };

/**
 * The user's entries dated `from`..`to` (inclusive), in date order (then creation, then id); a
 * debit matched to a paid EMI is left out (the EMI shows it).
 */
export async function ledgerEntries(
  db: Queryable,
  userId: string,
  from: string,
  to: string,
): Promise<LedgerLine[]> {
  const { rows } = await db.query<DbLedgerLine>(
    `SELECT e.entry_id AS id, to_char(e.entry_date, 'YYYY-MM-DD') AS date, e.side, e.kind, e.particulars,
            e.amount::text AS amount
       FROM ledger_entries e
      WHERE e.user_id = $1 AND e.entry_date BETWEEN $2::date AND $3::date AND e.matched_to IS NULL
      ORDER BY e.entry_date, e.created_at, e.entry_id`,
    [userId, from, to],
    { prepared: true },
  );
  // Each field by name (a month holds hundreds of entries; a spread of the driver's row is slower).
  return rows.map((r) => ({
    id: r.id,
    date: r.date,
    side: r.side,
    kind: r.kind,
    particulars: r.particulars,
    amount: toPaise(r.amount),
  }));
}

export type LedgerPeriod = { year: number; month: number; transactionCount: number; emiCount: number };

/**
 * Months with a transaction, or with an EMI in or before (`year`, `month`) (the current month),
 * newest first. A listed month counts all its entries.
 */
export async function ledgerPeriods(
  db: Queryable,
  userId: string,
  current: { year: number; month: number },
): Promise<LedgerPeriod[]> {
  const { rows } = await db.query<{
    year: number;
    month: number;
    transaction_count: number;
    emi_count: number;
  }>(
    `SELECT year, month, transaction_count, emi_count FROM ledger_periods
      WHERE user_id = $1 AND (transaction_count > 0 OR (emi_count > 0 AND year * 12 + month <= $2))
      ORDER BY year DESC, month DESC`,
    [userId, current.year * 12 + current.month],
    { prepared: true },
  );
  return rows.map((r) => ({
    year: r.year,
    month: r.month,
    transactionCount: r.transaction_count,
    emiCount: r.emi_count,
  }));
}
