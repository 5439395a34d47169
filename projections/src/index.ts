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
export { evolveBudgetRow } from './budgets/projector';
export {
  type BudgetStatus,
  type BudgetView,
  budgetOfCategory,
  budgetStatus,
  getBudget,
  listBudgets,
} from './budgets/queries';
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
export { type CategoryRow, evolveCategoryRow } from './categories/projector';
export { type CategoryWithCount, getCategory, listCategories } from './categories/queries';
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
  type LoanListEntry,
  type LoanListQuery,
  type LoanSortKey,
  type LoanView,
  listLoans,
  listLoansWithFigures,
} from './loans/queries';
export {
  evolveNotificationRow,
  getNotificationPreferences,
  type NotificationRow,
  reminderSubscribers,
} from './notifications/projector';
export { evolveRecurringRow, type RecurringRow } from './recurring/projector';
export {
  getRecurring,
  listRecurring,
  type PostedOccurrence,
  postedOccurrences,
  recurringActiveBetween,
} from './recurring/queries';
export { allProjections, migrationSources, runnerMigrations } from './registry';
export { groupLedgerByCategory, type LedgerGroup } from './reports/ledger-groups';
export {
  incomeExpenseByMonth,
  type MonthIncomeExpense,
  type NetWorthPoint,
  netWorthOn,
} from './reports/queries';
export {
  type CategorySpend,
  categoriesAndSpending,
  categoriesAndSpendingStatement,
  type MonthCategorySpend,
  type ReportCategory,
  reportCategories,
  spendingByMonthAndCategory,
} from './reports/spending';
export { rollUpSpending, type SpendingNode } from './reports/tree';
export { type RuleCandidate, ruleCandidates } from './rules/candidates';
export { evolveRuleRow, getRule, listRules, type RuleRow } from './rules/projector';
export { deferredIndexKeys, indexKey, type TableIndex, tableIndexes } from './runner/rebuild';
export {
  createProjectionRunner,
  LIVE_LOCK,
  ProjectionRebuildError,
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
  type EmiDue,
  getSchedule,
  type LoanStanding,
  loanStandings,
  type ScheduleView,
  type ScheduleViewRow,
  standingOf,
  unpaidEmisBetween,
} from './schedules/queries';
export { getSessionSubject, liveSessionsOf, type SessionRow, touchSession } from './sessions/queries';
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
