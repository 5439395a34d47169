import { fromPaise, type Paise } from '@kosh/domain';

/**
 * Timeline entries: what an event changed, field by field, with the names the screens use and
 * money in rupees. Pure; the caller supplies the event before (for events that carry only the
 * new values) and the names of lenders and loan types.
 */

export type ChangeValue = string | number | boolean | null;
export type FieldChange = { field: string; from: ChangeValue; to: ChangeValue };

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

export type Names = {
  banks: ReadonlyMap<number, string>;
  loanTypes: ReadonlyMap<number, string>;
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
  const match = /^(loan|transaction|bank|loan_type):([0-9A-Za-z-]{1,64})$/.exec(wire);
  if (!match) return null;
  const kind = { loan: 'loan', transaction: 'txn', bank: 'bank', loan_type: 'loantype' }[match[1] as string];
  return `${kind}-${match[2]}`;
}

type Field = { label: string; show: (value: unknown, names: Names) => ChangeValue };

const text: Field['show'] = (v) => (v === undefined || v === null ? null : String(v));
const money: Field['show'] = (v) => (typeof v === 'number' ? fromPaise(v as Paise) : null);
const number: Field['show'] = (v) => (typeof v === 'number' ? v : null);
const yesNo: Field['show'] = (v) => (typeof v === 'boolean' ? v : null);
const period =
  (yes: string, no: string): Field['show'] =>
  (v) =>
    typeof v === 'boolean' ? (v ? yes : no) : null;

/** Transaction fields, in the order the transaction form shows them. */
const TRANSACTION_FIELDS: Record<string, Field> = {
  transactionType: { label: 'Type', show: (v) => (v === 'C' ? 'Credit' : v === 'D' ? 'Debit' : null) },
  transactionDate: { label: 'Date', show: text },
  amount: { label: 'Amount', show: money },
  notes: { label: 'Notes', show: text },
};

/** Loan fields, in the order the loan form shows them. */
const LOAN_FIELDS: Record<string, Field> = {
  bankId: { label: 'Bank', show: (v, n) => (typeof v === 'number' ? (n.banks.get(v) ?? `Bank ${v}`) : null) },
  loanTypeId: {
    label: 'Loan Type',
    show: (v, n) => (typeof v === 'number' ? (n.loanTypes.get(v) ?? `Loan type ${v}`) : null),
  },
  accountNumber: { label: 'Account Number', show: text },
  shortDetail: { label: 'Short Description', show: text },
  principalAmount: { label: 'Principal Amount', show: money },
  processingFee: { label: 'Processing Fee', show: money },
  interestRate: { label: 'Interest Rate', show: number },
  isInterestRateYearly: { label: 'Interest rate is', show: period('Yearly', 'Monthly') },
  duration: { label: 'Duration', show: number },
  isDurationYearly: { label: 'Duration in', show: period('Years', 'Months') },
  startDate: { label: 'Start Date', show: text },
  endDate: { label: 'End Date', show: text },
  hasGst: { label: 'GST applies to the interest', show: yesNo },
  gstPercentage: { label: 'GST Percentage', show: number },
};

const PROFILE_FIELDS: Record<string, Field> = {
  firstName: { label: 'First Name', show: text },
  lastName: { label: 'Last Name', show: text },
  email: { label: 'Email', show: text },
};

type Values = Record<string, unknown> | null | undefined;

/** One change per field (in the table's order) whose shown value differs between `from` and `to`. */
function diff(fields: Record<string, Field>, from: Values, to: Values, names: Names): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [key, field] of Object.entries(fields)) {
    const before = from && key in from ? field.show(from[key], names) : null;
    const after = to && key in to ? field.show(to[key], names) : null;
    if (before !== after) changes.push({ field: field.label, from: before, to: after });
  }
  return changes;
}

type ScheduleData = {
  version: number;
  reason: string;
  rows: readonly { emi: Paise }[];
  totals: { principal: Paise; interest: Paise; gst: Paise; emi: Paise; numberOfPayments: number };
};

/** What the schedule screen shows of a version. */
function scheduleFigures(s: ScheduleData | null): Record<string, unknown> | null {
  if (!s) return null;
  return {
    version: s.version,
    emi: s.rows[0]?.emi ?? 0,
    numberOfPayments: s.totals.numberOfPayments,
    interest: s.totals.interest,
    gst: s.totals.gst,
    total: s.totals.emi,
  };
}

const SCHEDULE_FIELDS: Record<string, Field> = {
  version: { label: 'Schedule Version', show: number },
  emi: { label: 'EMI', show: money },
  numberOfPayments: { label: 'Number of Payments', show: number },
  interest: { label: 'Interest', show: money },
  gst: { label: 'GST', show: money },
  total: { label: 'Total EMI', show: money },
};

const REASONS: Record<string, string> = {
  created: 'loan created',
  updated: 'terms edited',
  regenerated: 'regenerated',
};

/** The event before this one that `timelineEntry` needs to show a change, by event type. */
export const PREVIOUS_NEEDED: Readonly<Record<string, readonly string[]>> = {
  ScheduleGenerated: ['ScheduleGenerated'],
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
  switch (event.type) {
    case 'TransactionRecorded':
      return entry(
        `${d.transactionType === 'C' ? 'Credit' : 'Debit'} of ${amount(d.amount)} recorded`,
        diff(TRANSACTION_FIELDS, null, d, names),
      );
    case 'TransactionUpdated': {
      const changes = diff(
        TRANSACTION_FIELDS,
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
        diff(TRANSACTION_FIELDS, p, null, names),
      );
    }
    case 'LoanCreated':
      return entry(`Loan ${String(d.accountNumber)} created`, diff(LOAN_FIELDS, null, d, names));
    case 'LoanUpdated': {
      // `previous` holds the old value of exactly the fields in `changes`.
      const changes = diff(LOAN_FIELDS, d.previous as Values, d.changes as Values, names);
      return entry(`Loan edited (${changes.map((c) => c.field).join(', ')})`, changes);
    }
    case 'LoanDeleted':
      return entry('Loan deleted');
    case 'ScheduleGenerated': {
      const s = d as unknown as ScheduleData;
      const changes = diff(
        SCHEDULE_FIELDS,
        scheduleFigures(previous as unknown as ScheduleData | null),
        scheduleFigures(s),
        names,
      );
      return entry(`Schedule version ${s.version} generated (${REASONS[s.reason] ?? s.reason})`, changes);
    }
    case 'UserRegistered':
      return entry('Account registered', diff(PROFILE_FIELDS, null, d, names));
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
      return entry(
        'Profile edited',
        diff(
          { firstName: PROFILE_FIELDS.firstName as Field, lastName: PROFILE_FIELDS.lastName as Field },
          previous,
          d,
          names,
        ),
      );
    case 'EmailChangeRequested':
      return entry(`Change of email address to ${String(d.email)} requested`);
    case 'EmailChanged':
      return entry(
        'Email address changed',
        diff(PROFILE_FIELDS, { email: d.previousEmail }, { email: d.email }, names),
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
