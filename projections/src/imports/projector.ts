import { IMPORT_EVENT_TYPES, type ImportEvent, type RecordedEvent } from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import { defineProjection } from '../runner/define';
import { FINGERPRINT_DIGEST } from './queries';

async function applyEvent(tx: Queryable, event: RecordedEvent<ImportEvent>): Promise<void> {
  if (event.type === 'ImportCommitted') {
    const d = event.data;
    const { rowCount } = await tx.query(
      `INSERT INTO import_batches (id, user_id, account_id, file_name, format, preset, row_count, skipped_rows,
         balance_mismatch_confirmed, status, committed_at, version)
       VALUES ($1::uuid, $2, $3::uuid, $4, $5, $6, $7, $8, $9, 'committed', $10, $11)
       ON CONFLICT (id) DO NOTHING`,
      [
        d.importId,
        d.userId,
        d.accountId,
        d.fileName,
        d.format,
        d.preset,
        d.rows.length,
        d.skippedRows,
        d.balanceMismatchConfirmed,
        d.committedAt,
        event.streamVersion,
      ],
    );
    if (rowCount === 0) return;
    const keys: string[] = [];
    const transactions: string[] = [];
    for (const row of d.rows) {
      for (const key of row.fingerprints) {
        keys.push(key);
        transactions.push(row.transactionId);
      }
    }
    await tx.query(
      `INSERT INTO import_fingerprints (account_id, digest, user_id, import_id, transaction_id)
       SELECT $1::uuid, ${FINGERPRINT_DIGEST('k')}, $2, $3::uuid, t FROM unnest($4::text[], $5::uuid[]) AS z(k, t)
       ON CONFLICT (account_id, digest) DO NOTHING`,
      [d.accountId, d.userId, d.importId, keys, transactions],
    );
    return;
  }
  // An imported row edited or deleted on its own keeps its fingerprint: a later import of the
  // same statement does not bring a deleted row back.
  if (event.type !== 'ImportUndone') return;
  const d = event.data;
  const { rowCount } = await tx.query(
    `UPDATE import_batches SET status = 'undone', undone_at = $2, version = $3
      WHERE id = $1::uuid AND version < $3`,
    [d.importId, d.undoneAt, event.streamVersion],
  );
  if (rowCount === 0) return;
  await tx.query('DELETE FROM import_fingerprints WHERE import_id = $1::uuid', [d.importId]);
}

/**
 * Committed statement imports and the fingerprint keys of the rows they recorded, per account:
 * what the next preview of that account compares its rows with. Events in log order, one batch
 * per transaction; an event delivered again changes nothing (the version guards).
 */
export const importsProjection = defineProjection({
  name: 'imports',
  handles: IMPORT_EVENT_TYPES,
  tables: ['import_batches', 'import_fingerprints'],
  migrations: new URL('./migrations', import.meta.url),
  async apply(tx, events) {
    for (const event of events) await applyEvent(tx, event);
  },
});
