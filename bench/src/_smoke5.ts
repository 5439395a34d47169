import { createTestDatabase } from '@kosh/event-store/testing/test-database';
import { migrate, eventStoreMigrations } from '@kosh/event-store/migrations';
import { migrationSources } from '@kosh/projections/registry';
import { transactionsProjection } from '@kosh/projections/transactions/projector';
import { ledgerProjection } from '@kosh/projections/ledger/projector';
import { listTransactions, getTransactionStats } from '@kosh/projections/transactions/queries';
import { ledgerEntries, ledgerPeriods } from '@kosh/projections/ledger/queries';

const t = await createTestDatabase();
try {
  await migrate(t.db, [eventStoreMigrations, ...migrationSources]);
  const u = 'user-1';
  const ev = (type: string, data: unknown, v: number) => ({ type, data, streamVersion: v, id: 'x', streamId: 's', position: 'p', metadata: {} as never }) as never;
  const id = '3f1c2b8e-1d2a-4c1b-9a51-7a0c6d1e2f30';
  const events = [
    ev('BankAdded', { bankId: 1, bankName: 'HDFC Bank', branchName: null, ownerUserId: null, addedAt: 'x' }, 1),
    ev('LoanTypeAdded', { loanTypeId: 1, typeName: 'Home Loan', ownerUserId: null, addedAt: 'x' }, 1),
    ev('TransactionRecorded', { transactionId: id, userId: u, notes: '100% sure_x', transactionType: 'C', transactionDate: '2025-03-05', amount: 12345, recordedAt: '2025-03-05T10:00:00.000Z' }, 1),
    ev('TransactionUpdated', { transactionId: id, userId: u, changes: { transactionType: 'D' }, previous: {}, updatedAt: '2025-03-06T10:00:00.000Z' }, 2),
    ev('LoanCreated', { loanId: 'L1', userId: u, bankId: 1, loanTypeId: 1, accountNumber: 'AC12345', createdAt: 'x' }, 1),
    ev('ScheduleGenerated', { loanId: 'L1', userId: u, version: 1, generatedAt: '2025-01-01T00:00:00.000Z', rows: [{ paymentNumber: 1, emiDate: '2025-02-10', emi: 500000 }, { paymentNumber: 2, emiDate: '2025-03-10', emi: 500001 }] }, 2),
  ];
  await t.db.transaction(async (tx) => {
    await transactionsProjection.apply(tx, events);
    await ledgerProjection.apply(tx, events);
  });
  await t.db.transaction(async (tx) => {
    await transactionsProjection.apply(tx, events);
    await ledgerProjection.apply(tx, events);
  });
  console.log(await listTransactions(t.db, u, { page: 1, limit: 10, search: '0%', transactionType: null, dateFrom: null, dateTo: null, sortBy: 'amount', sortOrder: 'ASC' }));
  console.log(await listTransactions(t.db, u, { page: 1, limit: 10, search: '1_0', transactionType: null, dateFrom: null, dateTo: null, sortBy: 'amount', sortOrder: 'ASC' }));
  console.log(await getTransactionStats(t.db, u));
  console.log(await ledgerEntries(t.db, u, '2025-03-01', '2025-03-31'));
  console.log(await ledgerPeriods(t.db, u, { year: 2025, month: 2 }));
  const del = [ev('LoanDeleted', { loanId: 'L1', userId: u, deletedAt: 'x' }, 3)];
  await t.db.transaction((tx) => ledgerProjection.apply(tx, del));
  console.log(await ledgerPeriods(t.db, u, { year: 2025, month: 2 }), (await t.db.query('select * from ledger_periods')).rows);
  console.log((await t.db.query("select indexname from pg_indexes where tablename='transactions'")).rows);
} finally {
  await t.drop();
}
