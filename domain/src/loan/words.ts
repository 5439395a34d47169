import { formatInr } from '../money/format';
import type { LoanChange, PrepaymentChoice, RateChangeOption } from './actual-schedule';
import type { LoanStreamEvent, ScheduleGenerated, ScheduleRevised } from './events';
import { annualRatePercent } from './schedule';

/**
 * The words the screens use for a loan's events and changes: the History timeline and its type
 * filter, the schedule versions' "why", the ledger. Each table names every value of its type, so
 * a new event type, choice or option does not compile until it has its words.
 */

/** What each loan event is called (the History type filter and the entry's tag). */
export const LOAN_EVENT_LABELS = {
  LoanCreated: 'Loan created',
  LoanUpdated: 'Loan edited',
  LoanDeleted: 'Loan deleted',
  ScheduleGenerated: 'Schedule generated',
  LoanPrepaid: 'Part-payment',
  LoanRateChanged: 'Rate reset',
  EmiOverridden: 'EMI override',
  LoanForeclosed: 'Foreclosure',
  EmiMarkedPaid: 'EMI marked paid',
  EmisMarkedPaidUpTo: 'EMIs marked paid up to a date',
  EmiMatched: 'EMI matched to a debit',
  EmiMarkedMissed: 'EMI missed',
  EmiMarkUndone: 'Payment mark undone',
  EmiMatchReleased: 'Match released',
  PreEmiInterestPaid: 'Pre-EMI interest paid',
  ConstructionCompleted: 'Construction completed',
  ScheduleRevised: 'Schedule revised',
} as const satisfies Record<LoanStreamEvent['type'], string>;

/** The part-payment dialog's choices. */
export const PREPAYMENT_CHOICE_WORDS = {
  'reduce-emi': 'Reduce EMI',
  'reduce-tenure': 'Reduce tenure',
} as const satisfies Record<PrepaymentChoice, string>;

/** The rate-reset dialog's options (RBI, August 2023). */
export const RATE_OPTION_WORDS = {
  'increase-emi': 'Increase the EMI (same tenure)',
  'extend-tenure': 'Extend the tenure (same EMI)',
  combination: 'A new EMI, the tenure follows',
  'switch-to-fixed': 'Switch to a fixed rate (same tenure)',
} as const satisfies Record<RateChangeOption, string>;

const businessDate = new Intl.DateTimeFormat('en-IN', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A business date `YYYY-MM-DD` as the screens write it: "05 May 2024". */
export function dateWords(isoDate: string): string {
  const date = new Date(`${isoDate.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : businessDate.format(date);
}

/** A rate in percent as the screens write it: "9.25%". */
export const rateWords = (percent: number): string => `${Number(percent.toFixed(6))}%`;

/** A loan as the screens name it: "HL20200505 · State Bank of India - Andheri". */
export function loanName(accountNumber: string, bankName: string | null, branchName: string | null = null) {
  if (!bankName) return accountNumber;
  return `${accountNumber} · ${branchName ? `${bankName} - ${branchName}` : bankName}`;
}

/** A change's fields in name order: stored changes come back from JSONB with their keys reordered. */
const keyOf = (change: LoanChange) =>
  JSON.stringify(Object.entries(change).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The change `changes` holds beyond `before` (a revision adds one; none when it only regenerated). */
export function addedChange(
  changes: readonly LoanChange[],
  before: readonly LoanChange[],
): LoanChange | null {
  const left = before.map(keyOf);
  for (const change of changes) {
    const at = left.indexOf(keyOf(change));
    if (at === -1) return change;
    left.splice(at, 1);
  }
  return null;
}

/** The annual rate in force just before `date`: the last reset dated before it, else the terms'. */
function rateBefore(
  terms: ScheduleRevised['data']['terms'],
  changes: readonly LoanChange[],
  date: string,
): number {
  let rate = annualRatePercent(terms);
  for (const change of changes)
    if (change.kind === 'rate-change' && change.date < date) rate = change.annualRatePercent;
  return rate;
}

/** "Part-payment of ₹5,00,000.00, tenure reduced", "Rate reset to 9.25% from 05 May 2024, EMI increased", … */
export function changeWords(
  change: LoanChange,
  context: Readonly<{
    terms: ScheduleRevised['data']['terms'];
    changes: readonly LoanChange[];
    settlement?: number;
  }>,
): string {
  switch (change.kind) {
    case 'prepayment': {
      const after = change.choice === 'reduce-tenure' ? 'tenure reduced' : 'EMI reduced';
      const charge = change.charge > 0 ? ` (charge ${formatInr(change.charge)})` : '';
      return `Part-payment of ${formatInr(change.amount)}${charge}, ${after}`;
    }
    case 'rate-change': {
      const reset = `Rate reset to ${rateWords(change.annualRatePercent)} from ${dateWords(change.date)}`;
      const before = rateBefore(context.terms, context.changes, change.date);
      switch (change.option) {
        case 'increase-emi':
          return `${reset}, EMI ${change.annualRatePercent >= before ? 'increased' : 'reduced'}`;
        case 'extend-tenure':
          return `${reset}, tenure ${change.annualRatePercent >= before ? 'extended' : 'shortened'} (same EMI)`;
        case 'combination':
          return `${reset}, EMI set to ${change.newEmi === null ? '—' : formatInr(change.newEmi)}`;
        case 'switch-to-fixed':
          return `${reset}, switched to a fixed rate`;
        default:
          return unknownWords(change.option);
      }
    }
    case 'emi-override':
      return `EMI set to ${formatInr(change.emi)} from ${dateWords(change.date)}`;
    case 'foreclosure': {
      const settlement =
        context.settlement === undefined ? '' : ` (settlement ${formatInr(context.settlement)})`;
      return `Foreclosed on ${dateWords(change.date)}${settlement}`;
    }
    default:
      return unknownWords(change);
  }
}

const REASON_WORDS = {
  created: 'Loan created',
  updated: 'Terms edited',
  regenerated: 'Schedule regenerated',
  prepaid: 'Part-payment',
  'rate-changed': 'Rate reset',
  'emi-overridden': 'EMI override',
  foreclosed: 'Foreclosure',
} as const satisfies Record<ScheduleGenerated['data']['reason'] | ScheduleRevised['data']['reason'], string>;

/** What a stored schedule event says of itself (the history keeps events as stored, untyped). */
export type ScheduleVersionEvent = Readonly<{
  reason: string;
  terms?: ScheduleRevised['data']['terms'];
  changes?: readonly LoanChange[];
  rows?: readonly Readonly<{ kind?: string; amount?: number }>[];
}>;

/**
 * Why a schedule version was made, in words: the change it added to the version before (whose
 * changes are `before`), or its reason.
 */
export function scheduleWhy(version: ScheduleVersionEvent, before: readonly LoanChange[]): string {
  const changes = version.changes ?? [];
  const added = version.reason === 'regenerated' ? null : addedChange(changes, before);
  if (added && version.terms) {
    const closing = version.rows?.at(-1);
    const settlement = closing?.kind === 'foreclosure' ? closing.amount : undefined;
    return changeWords(added, { terms: version.terms, changes, settlement });
  }
  return REASON_WORDS[version.reason as keyof typeof REASON_WORDS] ?? version.reason;
}

/** A value from outside the types (a stored event of a newer shape). */
function unknownWords(value: never): string {
  return String(value);
}
