import { createPgliteDb } from '@kosh/event-store/db-pglite';
import { migrate, eventStoreMigrations } from '@kosh/event-store/migrations';
import { migrationSources } from '@kosh/projections/registry';
import { transactionsProjection } from '@kosh/projections/transactions/projector';
import { ledgerProjection } from '@kosh/projections/ledger/projector';
import { listTransactions } from '@kosh/projections/transactions/queries';
import { ledgerEntries, ledgerPeriods } from '@kosh/projections/ledger/queries';
const db = await createPgliteDb(undefined);
await migrate(db, [eventStoreMigrations, ...migrationSources]);
const u = 'u1';
const ev = (type: string, data: unknown, v: number) => ({ type, data, streamVersion: v, id: 'x', streamId: 's', position: 'p', metadata: {} as never }) as never;
const events = [
  ev('TransactionRecorded', { transactionId: '3f1c2b8e-1d2a-4c1b-9a51-7a0c6d1e2f30', userId: u, notes: '100% sure_x', transactionType: 'C', transactionDate: '2025-03-05', amount: 12345, recordedAt: '2025-03-05T10:00:00.000Z' }, 1),
  ev('LoanCreated', { loanId: 'L1', userId: u, bankId: 1, loanTypeId: 1, accountNumber: 'AC12345', createdAt: 'x' }, 1),
  ev('ScheduleGenerated', { loanId: 'L1', userId: u, version: 1, generatedAt: '2025-01-01T00:00:00.000Z', rows: [{ paymentNumber: 1, emiDate: '2025-03-10', emi: 500000 }] }, 2),
];
await db.transaction(async (tx) => { await transactionsProjection.apply(tx, events); await ledgerProjection.apply(tx, events); });
console.log((await listTransactions(db, u, { page: 1, limit: 10, search: '0%', transactionType: 'C', dateFrom: '2025-01-01', dateTo: null, sortBy: 'amount', sortOrder: 'ASC' })).totalItems);
console.log(await ledgerEntries(db, u, '2025-03-01', '2025-03-31'), await ledgerPeriods(db, u, { year: 2025, month: 3 }));
console.log((await db.query("select indexname from pg_indexes where tablename='transactions'")).rows);
await db.close();
