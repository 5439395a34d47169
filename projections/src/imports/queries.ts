import { toPaise } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';

/**
 * How `import_fingerprints` stores a fingerprint key (SQL of the text expression `key`): its
 * SHA-256 digest, 32 bytes however long the narration (imports migration 002).
 */
export const FINGERPRINT_DIGEST = (key: string) => `sha256(convert_to(${key}, 'UTF8'))`;

/**
 * Which of `keys` were imported into the account before (issue 30 item 4). One set-based query:
 * the batch's keys unnested and semi-joined to the account's fingerprint digests (where
 * `key = ANY(array)` had PostgreSQL sort the 100,000 keys of a 50,000-row statement first).
 */
export async function knownFingerprints(
  db: Queryable,
  userId: string,
  accountId: string,
  keys: readonly string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = await db.query<{ key: string }>(
    `SELECT k.key FROM unnest($3::text[]) AS k(key)
      WHERE EXISTS (SELECT 1 FROM import_fingerprints f
                     WHERE f.account_id = $1::uuid AND f.user_id = $2 AND f.digest = ${FINGERPRINT_DIGEST('k.key')})`,
    [accountId, userId, keys],
  );
  return new Set(rows.map((r) => r.key));
}

export type ImportBatchRow = {
  id: string;
  accountId: string;
  fileName: string;
  format: string;
  preset: string | null;
  rowCount: number;
  skippedRows: number;
  balanceMismatchConfirmed: boolean;
  status: 'committed' | 'undone';
  committedAt: string;
  undoneAt: string | null;
};

const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The user's committed (and undone) batches, newest first. */
export async function listImportBatches(db: Queryable, userId: string): Promise<ImportBatchRow[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT id::text AS id, account_id::text AS account_id, file_name, format, preset, row_count, skipped_rows,
            balance_mismatch_confirmed, status, ${ISO('committed_at')} AS committed_at, ${ISO('undone_at')} AS undone_at
       FROM import_batches WHERE user_id = $1 ORDER BY committed_at DESC, id LIMIT 500`,
    [userId],
  );
  return rows.map((r) => ({
    id: String(r.id),
    accountId: String(r.account_id),
    fileName: String(r.file_name),
    format: String(r.format),
    preset: (r.preset as string | null) ?? null,
    rowCount: Number(r.row_count),
    skippedRows: Number(r.skipped_rows),
    balanceMismatchConfirmed: Boolean(r.balance_mismatch_confirmed),
    status: r.status as 'committed' | 'undone',
    committedAt: String(r.committed_at),
    undoneAt: (r.undone_at as string | null) ?? null,
  }));
}

/**
 * The typed (not imported) transactions of the account or of no account dated between `from`
 * and `to`, signed (credit +, debit −): the entries an imported row may repeat.
 */
export async function handEnteredTransactions(
  db: Queryable,
  userId: string,
  accountId: string,
  from: string,
  to: string,
): Promise<{ id: string; date: string; amount: number; text: string }[]> {
  const { rows } = await db.query<{ id: string; d: string; amount: string; t: string; notes: string }>(
    `SELECT id::text AS id, to_char(transaction_date, 'YYYY-MM-DD') AS d, amount::text AS amount,
            transaction_type AS t, notes
       FROM transactions
      WHERE user_id = $1 AND import_id IS NULL AND (account_id = $2::uuid OR account_id IS NULL)
        AND transaction_date BETWEEN $3::date - 3 AND $4::date + 3`,
    [userId, accountId, from, to],
  );
  return rows.map((r) => {
    const paise = toPaise(r.amount);
    return { id: r.id, date: r.d, amount: r.t === 'C' ? paise : -paise, text: r.notes };
  });
}

/**
 * The user's loan EMIs due between `from` − 40 days and `to` + 40 days that nothing marks paid,
 * matched, or paid up to: the EMIs an imported debit may pay (issue 30 item 7).
 */
export async function unpaidEmis(
  db: Queryable,
  userId: string,
  from: string,
  to: string,
): Promise<
  {
    loanId: string;
    emiNumber: number;
    accountNumber: string | null;
    lenderName: string | null;
    dueDate: string;
    amount: number;
  }[]
> {
  const { rows } = await db.query<{
    loan_id: string;
    n: number;
    account_number: string;
    lender: string | null;
    due: string;
    emi: string;
  }>(
    `SELECT r.loan_id::text AS loan_id, r.payment_number AS n, l.account_number, b.bank_name AS lender,
            to_char(r.emi_date, 'YYYY-MM-DD') AS due, r.emi::text AS emi
       FROM loan_schedule_rows r
       JOIN loans l ON l.id = r.loan_id AND l.user_id = $1
       LEFT JOIN catalog_banks b ON b.id = l.bank_id
      WHERE r.user_id = $1 AND r.kind = 'emi' AND r.emi_date BETWEEN $2::date - 40 AND $3::date + 40
        AND NOT EXISTS (
          SELECT 1 FROM loan_emi_marks m
           WHERE m.loan_id = r.loan_id
             AND ((m.mark->>'paymentNumber')::int = r.payment_number
                  OR COALESCE(m.mark->'paymentNumbers', '[]'::jsonb) @> to_jsonb(r.payment_number)))
      ORDER BY r.emi_date, r.loan_id`,
    [userId, from, to],
  );
  return rows.map((r) => ({
    loanId: r.loan_id,
    emiNumber: Number(r.n),
    accountNumber: r.account_number,
    lenderName: r.lender,
    dueDate: r.due,
    amount: toPaise(r.emi),
  }));
}
