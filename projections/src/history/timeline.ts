import {
  ACCOUNT_FIELDS,
  ACCOUNT_KIND_LABELS,
  type AccountDetails,
  type AccountFieldShape,
  type AccountKind,
  EMAIL_FIELDS,
  fromPaise,
  PROFILE_FIELDS,
  TRANSACTION_FIELDS,
} from '@kosh/domain';
import {
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
      return 'profile';
    case 'txn':
      return `transaction:${id}`;
    case 'loantype':
      return `loan_type:${id}`;
    default:
      return `${kind}:${id}`;
  }
}

/** The inverse of `wireStreamOf` for the caller's own streams; null when it is not one. */
export function streamIdOfWire(wire: string, userId: string): string | null {
  if (wire === 'profile') return `user-${userId}`;
  const match = /^(loan|transaction|bank|loan_type|account|transfer|import):([0-9A-Za-z-]{1,64})$/.exec(wire);
  if (!match) return null;
  const kind = {
    loan: 'loan',
    transaction: 'txn',
    bank: 'bank',
    loan_type: 'loantype',
    account: 'account',
    transfer: 'transfer',
    import: 'import',
  }[match[1] as string];
  return `${kind}-${match[2]}`;
}

/** Transaction fields (`TRANSACTION_FIELDS`); the type in words. */
const TRANSACTION_HISTORY = historyFields(TRANSACTION_FIELDS, {
  transactionType: (v) => (v === 'C' ? 'Credit' : v === 'D' ? 'Debit' : null),
});

/** How each shape of account field is shown. */
const ACCOUNT_SHOWN: Record<AccountFieldShape, Field['show']> = {
  text,
  date: text,
  money,
  kind: (v) => ACCOUNT_KIND_LABELS[v as AccountKind] ?? null,
  bank: (v, names) => (typeof v === 'number' ? (names.banks.get(v) ?? `Bank ${v}`) : null),
};

/** Account fields, from the one table that declares them (domain/src/account/fields.ts). */
const ACCOUNT_HISTORY_FIELDS: Record<string, Field> = Object.fromEntries(
  Object.entries(ACCOUNT_FIELDS).map(([key, f]) => [key, { label: f.label, show: ACCOUNT_SHOWN[f.shape] }]),
) as Record<keyof AccountDetails, Field>;

const TRANSFER_FIELDS: Record<string, Field> = {
  transferDate: { label: 'Date', show: text },
  amount: { label: 'Amount', show: money },
  fromAccountId: { label: 'From Account', show: text },
  toAccountId: { label: 'To Account', show: text },
  notes: { label: 'Notes', show: text },
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
        `${d.transactionType === 'C' ? 'Credit' : 'Debit'} of ${amount(d.amount)} recorded`,
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
    case 'TransferRecorded':
      return entry(`Transfer of ${amount(d.amount)} recorded`, diff(TRANSFER_FIELDS, null, d, names));
    case 'TransferDeleted': {
      const p = (d.previous ?? {}) as Record<string, unknown>;
      return entry(`Transfer of ${amount(p.amount)} deleted`, diff(TRANSFER_FIELDS, p, null, names));
    }
    case 'ImportCommitted':
      return entry(
        `Statement ${String(d.fileName)} imported: ${String(d.rowCount ?? 0)} transactions (credits ${amount(d.creditAmount)}, debits ${amount(d.debitAmount)})`,
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
      return entry(`Statement import undone: ${ids} transactions removed`);
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
    case 'AuditReadRecorded':
      return entry(`Auditor ${String(d.auditorEmail)} read ${String(d.request)}`);
    default:
      return entry(sentenceOf(event.type));
  }
}
