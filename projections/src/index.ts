/** @kosh/projections: what the other packages import from it. */
export { evolveAccountRow, evolveTransferRow } from './accounts/projector';
export {
  type AccountRow,
  type AccountWithBalance,
  accountRegister,
  getAccount,
  getTransfer,
  listAccounts,
  listTransfers,
  type RegisterEntry,
  type RegisterEntryKind,
  type TransferRow,
} from './accounts/queries';
export { type AuditGrantRow, selectAuditGrants } from './audit-grants/projector';
export { evolveBankRow, evolveLoanTypeRow } from './catalog/projector';
export {
  BANK_SORT_KEYS,
  type BankListQuery,
  type BankRow,
  type BankSortKey,
  getBank,
  getLoanType,
  type LoanTypeRow,
  listBanks,
  listLoanTypes,
  nextCatalogId,
} from './catalog/queries';
export { dueErasures, getPendingErasure, type PendingErasure } from './erasures/projector';
export { type AsOfReadModel, type AsOfScope, readAsOf } from './history/as-of';
export { HISTORY_EVENT_TYPES } from './history/projector';
export { exportEventData, exportPage, type HistoryFilter, historyPage, ownsStream } from './history/queries';
export {
  diffSchedules,
  type ScheduleVersion,
  scheduleVersions,
  scheduleVersionsWithRows,
} from './history/schedule-versions';
export { streamIdOfWire, type TimelineEntry } from './history/timeline';
export {
  handEnteredTransactions,
  type ImportBatchRow,
  knownFingerprints,
  listImportBatches,
  unpaidEmis,
} from './imports/queries';
export { type LedgerLine, ledgerEntries, ledgerPeriods } from './ledger/queries';
export { foldLoanView } from './loans/answer';
export { evolveLoanRow } from './loans/projector';
export {
  getLoan,
  getLoanStats,
  LOAN_PAGE_SIZES,
  LOAN_SORT_KEYS,
  type LoanListQuery,
  type LoanSortKey,
  type LoanView,
  listLoans,
} from './loans/queries';
export { allProjections, migrationSources, runnerMigrations } from './registry';
export {
  createProjectionRunner,
  LIVE_LOCK,
  type ProjectionRunner,
  type ProjectionStatus,
  type RebuildProgress,
} from './runner/runner';
export type { Projection } from './runner/types';
export {
  type LoanPresent,
  loanPresentParts,
  type PresentParts,
  presentOf,
  presentPartsOf,
} from './schedules/present';
export { evolveSchedule } from './schedules/projector';
export {
  getSchedule,
  type LoanStanding,
  loanStandings,
  type ScheduleView,
  type ScheduleViewRow,
  standingOf,
} from './schedules/queries';
export { evolveTransactionRow } from './transactions/projector';
export {
  getTransaction,
  getTransactionStats,
  listTransactions,
  type SortOrder,
  TRANSACTION_SORT_KEYS,
  type TransactionListQuery,
  type TransactionRow,
  type TransactionSortKey,
} from './transactions/queries';
export { selectUserRow } from './users/projector';
export {
  findUserIdByResetTokenHash,
  findUserIdByVerificationTokenHash,
  getTokenSubject,
  getUser,
} from './users/queries';
