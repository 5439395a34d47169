import {
  ACCOUNT_FIELDS,
  ACCOUNT_KIND_LABELS,
  type AccountKind,
  EMAIL_FIELDS,
  fromPaise,
  NOTIFICATION_FIELDS,
  PROFILE_FIELDS,
  RECURRING_FIELDS,
  RECURRING_FREQUENCY_LABELS,
  REMINDER_KINDS,
  type RecurringFrequency,
  RULE_FIELDS,
  TRANSACTION_FIELDS,
} from '@kosh/domain';
import {
  account,
  categoryName,
  diff,
  type Field,
  type FieldChange,
  historyFields,
  money,
  type Names,
  text,
  type Values,
} from './fields';
import { isLoanEvent, loanTimelineEntry } from './loan-timeline';

export type { ChangeValue, FieldChange, Names } from './fields';

/**
 * Timeline entries: what an event changed, field by field, with the names the screens use and
 * money in rupees. Pure; the caller supplies the event before (for events that carry only the
 * new values), the names of lenders and loan types, and of the loan a loan event is about.
 */

/** What the timeline needs of a stored event (secrets already removed). */
export type HistoryEvent = {
  position: string;
  streamId: string;
  streamVersion: number;
  type: string;
  data: Record<string, unknown>;
  correlationId: string;
  recordedAt: string;
};

export type TimelineEntry = {
  position: string;
  recordedAt: string;
  stream: string;
  type: string;
  summary: string;
  changes: FieldChange[];
  correlationId: string;
};

/** `loan-{id}` → `loan:{id}`, `txn-{id}` → `transaction:{id}`, `user-{id}` → `profile`. */
export function wireStreamOf(streamId: string): string {
  const dash = streamId.indexOf('-');
  const kind = streamId.slice(0, dash);
  const id = streamId.slice(dash + 1);
  switch (kind) {
    case 'user':
    case 'erasure':
      return 'profile';
    case 'notifications':
      return 'notifications';
    case 'txn':
      return `transaction:${id}`;
    case 'categories':
      return 'categories';
    case 'loantype':
      return `loan_type:${id}`;
    default:
      return `${kind}:${id}`;
  }
}

/** The inverse of `wireStreamOf` for the caller's own streams; null when it is not one. */
export function streamIdOfWire(wire: string, userId: string): string | null {
  if (wire === 'profile') return `user-${userId}`;
  if (wire === 'notifications') return `notifications-${userId}`;
  if (wire === 'categories') return `categories-${userId}`;
  const match =
    /^(loan|transaction|bank|loan_type|account|transfer|import|rule|budget|recurring):([0-9A-Za-z-]{1,64})$/.exec(
      wire,
    );
  if (!match) return null;
  const kind = {
    loan: 'loan',
    transaction: 'txn',
    bank: 'bank',
    loan_type: 'loantype',
    account: 'account',
    transfer: 'transfer',
    import: 'import',
    recurring: 'recurring',
    rule: 'rule',
    budget: 'budget',
  }[match[1] as string];
  return `${kind}-${match[2]}`;
}

/** Transaction fields (`TRANSACTION_FIELDS`); the type in words. */
const TRANSACTION_HISTORY = historyFields(TRANSACTION_FIELDS, {
  transactionType: (v) => (v === 'C' ? 'Credit' : v === 'D' ? 'Debit' : null),
  accountId: account,
  categoryId: categoryName,
});

/** Account fields (`ACCOUNT_FIELDS`); the type in words, a catalog bank by its name. */
const ACCOUNT_HISTORY_FIELDS = historyFields(ACCOUNT_FIELDS, {
  kind: (v) => ACCOUNT_KIND_LABELS[v as AccountKind] ?? null,
  bankId: (v, names) => (typeof v === 'number' ? (names.banks.get(v) ?? `Bank ${v}`) : null),
});

const TRANSFER_FIELDS: Record<string, Field> = {
  transferDate: { label: 'Date', show: text },
  amount: { label: 'Amount', show: money },
  fromAccountId: { label: 'From Account', show: account },
  toAccountId: { label: 'To Account', show: account },
  notes: { label: 'Notes', show: text },
};

/** A statement's column mapping (domain/src/statement/mapping.ts), each column by its header. */
const MAPPING_FIELDS: Record<string, Field> = {
  date: { label: 'Date Column', show: text },
  valueDate: { label: 'Value Date Column', show: text },
  narration: { label: 'Narration Column', show: text },
  reference: { label: 'Reference Column', show: text },
  debit: { label: 'Debit Column', show: text },
  credit: { label: 'Credit Column', show: text },
  amount: { label: 'Amount Column', show: text },
  drCr: { label: 'Dr/Cr Column', show: text },
  balance: { label: 'Balance Column', show: text },
  balanceDrCr: { label: 'Balance Dr/Cr Column', show: text },
};

/** Recurring entry fields (`RECURRING_FIELDS`); the type, the repeat and the last day in words. */
const RECURRING_HISTORY = historyFields(RECURRING_FIELDS, {
  transactionType: (v) => (v === 'C' ? 'Credit' : v === 'D' ? 'Debit' : null),
  frequency: (v) => RECURRING_FREQUENCY_LABELS[v as RecurringFrequency] ?? null,
  dayOfMonth: (v) => (typeof v === 'number' ? v : v === null ? 'Last day' : null),
});

const NOTIFICATION_HISTORY = historyFields(NOTIFICATION_FIELDS);
/** Rule fields (`RULE_FIELDS`); the type in words. */
const RULE_HISTORY = historyFields(RULE_FIELDS, {
  transactionType: (v) => (v === 'C' ? 'Credit' : v === 'D' ? 'Debit' : null),
  categoryId: categoryName,
});

const KIND_WORDS: Record<string, string> = { income: 'income', expense: 'expense' };

/** A budget's terms (issue 31). */
const BUDGET_FIELDS: Record<string, Field> = {
  amount: { label: 'Monthly Amount', show: money },
  rollover: { label: 'Rollover', show: (v) => (v === true ? 'On' : v === false ? 'Off' : null) },
};

/** The profile's names (`PROFILE_FIELDS`) and its address (`EMAIL_FIELDS`). */
const PROFILE_HISTORY = historyFields(PROFILE_FIELDS);
const EMAIL_HISTORY = historyFields(EMAIL_FIELDS);

/** The event before this one that `timelineEntry` needs to show a change, by event type. */
export const PREVIOUS_NEEDED: Readonly<Record<string, readonly string[]>> = {
  ScheduleGenerated: ['ScheduleGenerated', 'ScheduleRevised'],
  ScheduleRevised: ['ScheduleGenerated', 'ScheduleRevised'],
  ProfileUpdated: ['UserRegistered', 'ProfileUpdated'],
};

/** ₹1,50,000.00, as the screens write amounts. */
const RUPEES = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });

/** 'LoanRateChanged' → 'Loan rate changed'. */
function sentenceOf(type: string): string {
  const words = type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The timeline entry of one event. `previous`: the data of the latest earlier event of the same
 * stream among `PREVIOUS_NEEDED[event.type]` (null when none or not needed).
 */
export function timelineEntry(event: HistoryEvent, previous: Values, names: Names): TimelineEntry {
  const d = event.data;
  const base = {
    position: event.position,
    recordedAt: event.recordedAt,
    stream: wireStreamOf(event.streamId),
    type: event.type,
    correlationId: event.correlationId,
  };
  const entry = (summary: string, changes: FieldChange[] = []): TimelineEntry => ({
    ...base,
    summary,
    changes,
  });
  const amount = (v: unknown) => (typeof v === 'number' ? RUPEES.format(fromPaise(v)) : '');
  if (isLoanEvent(event.type)) {
    const loan =
      names.loans?.get(event.position) ?? `${event.streamId.slice('loan-'.length, 'loan-'.length + 8)}…`;
    const { summary, changes } = loanTimelineEntry(event.type, d, loan, previous, names);
    return entry(summary, changes);
  }
  switch (event.type) {
    case 'TransactionRecorded':
      return entry(
        `${d.transactionType === 'C' ? 'Credit' : 'Debit'} of ${amount(d.amount)} recorded${d.recurringId ? ` by a recurring entry (${String(d.occurrenceDate)})` : ''}`,
        diff(TRANSACTION_HISTORY, null, d, names),
      );
    case 'TransactionUpdated': {
      const changes = diff(
        TRANSACTION_HISTORY,
        d.previous as Values,
        { ...(d.previous as object), ...(d.changes as object) },
        names,
      );
      return entry(`Transaction edited (${changes.map((c) => c.field).join(', ') || 'no change'})`, changes);
    }
    case 'TransactionDeleted': {
      const p = (d.previous ?? {}) as Record<string, unknown>;
      return entry(
        `${p.transactionType === 'C' ? 'Credit' : 'Debit'} of ${amount(p.amount)} deleted`,
        diff(TRANSACTION_HISTORY, p, null, names),
      );
    }
    case 'AccountOpened':
      return entry(`Account ${String(d.name)} opened`, diff(ACCOUNT_HISTORY_FIELDS, null, d, names));
    case 'AccountUpdated': {
      const after = { ...(d.previous as object), ...(d.changes as object) };
      const changes = diff(ACCOUNT_HISTORY_FIELDS, d.previous as Values, after, names);
      return entry(`Account edited (${changes.map((c) => c.field).join(', ') || 'no change'})`, changes);
    }
    case 'AccountDeleted': {
      const p = (d.previous ?? {}) as Record<string, unknown>;
      return entry(`Account ${String(p.name)} deleted`, diff(ACCOUNT_HISTORY_FIELDS, p, null, names));
    }
    case 'AccountImportMappingSaved': {
      const mapping = (d.mapping ?? {}) as Record<string, unknown>;
      return entry(
        `Statement columns remembered for ${account(d.accountId, names)}`,
        diff(MAPPING_FIELDS, null, mapping, names),
      );
    }
    case 'TransferRecorded':
      return entry(
        `Transfer of ${amount(d.amount)} from ${account(d.fromAccountId, names)} to ${account(d.toAccountId, names)} recorded`,
        diff(TRANSFER_FIELDS, null, d, names),
      );
    case 'TransferDeleted': {
      const p = (d.previous ?? {}) as Record<string, unknown>;
      return entry(
        `Transfer of ${amount(p.amount)} from ${account(p.fromAccountId, names)} to ${account(p.toAccountId, names)} deleted`,
        diff(TRANSFER_FIELDS, p, null, names),
      );
    }
    case 'ImportCommitted':
      return entry(
        `Statement ${String(d.fileName)} imported into ${account(d.accountId, names)}: ${String(d.rowCount ?? 0)} transactions (credits ${amount(d.creditAmount)}, debits ${amount(d.debitAmount)})`,
        [{ field: 'Account', from: null, to: account(d.accountId, names) }],
      );
    case 'ImportedTransactionUpdated': {
      const changes = diff(
        TRANSACTION_HISTORY,
        d.previous as Values,
        { ...(d.previous as object), ...(d.changes as object) },
        names,
      );
      return entry(
        `Imported transaction edited (${changes.map((c) => c.field).join(', ') || 'no change'})`,
        changes,
      );
    }
    case 'ImportedTransactionDeleted': {
      const p = (d.previous ?? {}) as Record<string, unknown>;
      return entry(
        `Imported ${p.transactionType === 'C' ? 'credit' : 'debit'} of ${amount(p.amount)} deleted`,
        diff(TRANSACTION_HISTORY, p, null, names),
      );
    }
    case 'ImportUndone': {
      const ids = Array.isArray(d.transactionIds) ? d.transactionIds.length : 0;
      return entry(
        `Statement import undone: ${ids} transactions removed from ${account(d.accountId, names)}`,
        [{ field: 'Account', from: account(d.accountId, names), to: null }],
      );
    }
    case 'RecurringEntryCreated':
      return entry(
        `Recurring ${d.transactionType === 'C' ? 'credit' : 'debit'} ${String(d.notes)} of ${amount(d.amount)} created`,
        diff(RECURRING_HISTORY, null, d, names),
      );
    case 'RecurringEntryUpdated': {
      const after = { ...(d.previous as object), ...(d.changes as object) };
      const changes = diff(RECURRING_HISTORY, d.previous as Values, after, names);
      return entry(
        `Recurring entry edited (${changes.map((c) => c.field).join(', ') || 'no change'})`,
        changes,
      );
    }
    case 'RecurringEntryDeleted': {
      const p = (d.previous ?? {}) as Record<string, unknown>;
      return entry(`Recurring entry ${String(p.notes)} deleted`, diff(RECURRING_HISTORY, p, null, names));
    }
    case 'RecurringOccurrenceSkipped':
      return entry(`Occurrence of ${String(d.occurrenceDate)} skipped`);
    case 'RecurringOccurrenceChanged':
      return entry(`Occurrence of ${String(d.occurrenceDate)} changed to ${amount(d.amount)}`, [
        { field: 'Amount', from: null, to: money(d.amount, names) },
        { field: 'Notes', from: null, to: text(d.notes, names) },
      ]);
    case 'RecurringOccurrenceRestored':
      return entry(`Occurrence of ${String(d.occurrenceDate)} restored to the entry's values`);
    case 'NotificationPreferencesSet': {
      const after = { ...(d.previous as object), ...(d.changes as object) };
      return entry(
        'Reminder preferences changed',
        diff(NOTIFICATION_HISTORY, d.previous as Values, after, names),
      );
    }
    case 'ReminderUnsubscribed':
      return entry(
        `Unsubscribed from ${REMINDER_KINDS[d.kind as keyof typeof REMINDER_KINDS]?.label ?? String(d.kind)} reminders by mail link`,
      );
    case 'CategoriesSeeded': {
      const count = Array.isArray(d.categories) ? d.categories.length : 0;
      return entry(`Categories set up: ${count} household categories`);
    }
    case 'CategoryCreated':
      return entry(
        `Category ${String(d.name)} added (${KIND_WORDS[String(d.kind)] ?? String(d.kind)})`,
        [
          { field: 'Name', from: null, to: text(d.name, names) },
          { field: 'Parent', from: null, to: categoryName(d.parentId, names) },
        ].filter((c) => c.to !== null),
      );
    case 'CategoryRenamed':
      return entry(`Category ${String(d.previousName)} renamed to ${String(d.name)}`, [
        { field: 'Name', from: text(d.previousName, names), to: text(d.name, names) },
      ]);
    case 'CategoryMoved':
      return entry(d.parentId === null ? 'Category moved to the top level' : 'Category moved under another', [
        {
          field: 'Parent',
          from: categoryName(d.previousParentId, names),
          to: categoryName(d.parentId, names),
        },
      ]);
    case 'CategoryMerged':
      return entry(`Category ${String(d.name)} merged into ${String(d.intoName)}: its transactions moved`);
    case 'CategoryDeleted':
      return entry(
        d.moveTo === null
          ? `Category ${String(d.name)} deleted: its transactions left uncategorised`
          : `Category ${String(d.name)} deleted: its transactions moved to ${String(d.moveToName)}`,
      );
    case 'BudgetSet':
      return entry(
        `Budget of ${amount(d.amount)} a month set for ${String(d.categoryName)}`,
        diff(BUDGET_FIELDS, null, d, names),
      );
    case 'BudgetChanged': {
      const changes = diff(
        BUDGET_FIELDS,
        d.previous as Values,
        { ...(d.previous as object), ...(d.changes as object) },
        names,
      );
      return entry(
        `Budget edited from ${String(d.fromMonth)} (${changes.map((c) => c.field).join(', ') || 'no change'})`,
        changes,
      );
    }
    case 'BudgetDeleted':
      return entry(
        `Budget for ${String(d.categoryName)} deleted`,
        diff(BUDGET_FIELDS, d.previous as Values, null, names),
      );
    case 'RuleCreated':
      return entry(`Rule ${String(d.name)} created`, diff(RULE_HISTORY, null, d, names));
    case 'RuleUpdated': {
      const changes = diff(
        RULE_HISTORY,
        d.previous as Values,
        { ...(d.previous as object), ...(d.changes as object) },
        names,
      );
      return entry(`Rule edited (${changes.map((c) => c.field).join(', ') || 'no change'})`, changes);
    }
    case 'RuleDeleted': {
      const p = (d.previous ?? {}) as Record<string, unknown>;
      return entry(`Rule ${String(p.name)} deleted`, diff(RULE_HISTORY, p, null, names));
    }
    case 'RuleApplied': {
      const n = Array.isArray(d.changes) ? d.changes.length : 0;
      return entry(
        `Rule ${String(d.name)} applied to existing entries: ${n} transaction${n === 1 ? '' : 's'} changed`,
      );
    }
    case 'UserRegistered':
      return entry('Account registered', diff({ ...PROFILE_HISTORY, ...EMAIL_HISTORY }, null, d, names));
    case 'EmailVerificationRequested':
      return entry(`Verification link sent to ${String(d.email)}`);
    case 'EmailVerified':
      return entry(`Email address ${String(d.email)} verified`);
    case 'PasswordResetRequested':
      return entry('Password reset requested');
    case 'PasswordResetCompleted':
      return entry('Password reset');
    case 'PasswordChanged':
      return entry('Password changed');
    case 'SignedOut':
      return entry('Signed out');
    case 'TwoFactorSetupStarted':
      return entry('Two-factor sign-in setup started');
    case 'TwoFactorEnabled':
      return entry('Two-factor sign-in turned on');
    case 'TwoFactorDisabled':
      return entry('Two-factor sign-in turned off');
    case 'TwoFactorReset':
      return entry(`Two-factor sign-in turned off by support (${String(d.reason)})`);
    case 'RecoveryCodesRegenerated':
      return entry('New recovery codes made');
    case 'TwoFactorCodeUsed':
      return entry(d.method === 'recovery' ? 'Signed in with a recovery code' : 'Signed in with a code');
    case 'SessionStarted':
      return entry(`Signed in from ${String(d.browser)} on ${String(d.os)} (${String(d.address)})`);
    case 'SessionEnded':
      return entry(d.reason === 'signed-out' ? 'Signed out' : 'A session was ended');
    case 'ProfileUpdated':
      return entry('Profile edited', diff(PROFILE_HISTORY, previous, d, names));
    case 'EmailChangeRequested':
      return entry(`Change of email address to ${String(d.email)} requested`);
    case 'EmailChanged':
      return entry(
        'Email address changed',
        diff(EMAIL_HISTORY, { email: d.previousEmail }, { email: d.email }, names),
      );
    case 'EmailClaimAttempted':
      return entry(
        `Someone tried to use this email address (${d.via === 'register' ? 'registration' : 'profile'})`,
      );
    case 'ProfilePictureSet':
      return entry('Profile picture set', [
        { field: 'Profile Picture', from: text(d.previousFileName, names), to: text(d.fileName, names) },
      ]);
    case 'ProfilePictureRemoved':
      return entry('Profile picture removed', [
        { field: 'Profile Picture', from: text(d.fileName, names), to: null },
      ]);
    case 'BankAdded':
      return entry(
        `Bank ${String(d.bankName)} added`,
        [
          { field: 'Bank Name', from: null, to: text(d.bankName, names) },
          { field: 'Branch Name', from: null, to: text(d.branchName, names) },
        ].filter((c) => c.to !== null),
      );
    case 'LoanTypeAdded':
      return entry(`Loan type ${String(d.typeName)} added`, [
        { field: 'Loan Type', from: null, to: text(d.typeName, names) },
      ]);
    case 'AuditAccessGranted':
      return entry(
        `Auditor access granted to ${String(d.email)}`,
        [
          { field: 'Auditor Email', from: null, to: text(d.email, names) },
          { field: 'Expires At', from: null, to: text(d.expiresAt, names) },
          { field: 'As Of Limit', from: null, to: text(d.asOfLimit, names) },
        ].filter((c) => c.to !== null),
      );
    case 'AuditAccessRevoked':
      return entry('Auditor access revoked');
    case 'AccountErasureRequested':
      return entry(
        `Deletion of the account requested: it is erased on ${new Date(String(d.eraseAfter)).toISOString().slice(0, 10)} unless cancelled`,
      );
    case 'AccountErasureCancelled':
      return entry(
        d.via === 'sign-in'
          ? 'Deletion of the account cancelled by signing in'
          : 'Deletion of the account cancelled',
      );
    case 'AuditReadRecorded':
      return entry(`Auditor ${String(d.auditorEmail)} read ${String(d.request)}`);
    default:
      return entry(sentenceOf(event.type));
  }
}
