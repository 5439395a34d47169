import {
  dateWords,
  formatInr,
  LOAN_FIELDS,
  type LoanStreamEvent,
  loanStreamEventTypes,
  PREPAYMENT_CHOICE_WORDS,
  RATE_OPTION_WORDS,
  rateWords,
  type ScheduleVersionEvent,
  scheduleWhy,
} from '@kosh/domain';
import {
  diff,
  type Field,
  type FieldChange,
  historyFields,
  money,
  type Names,
  number,
  type Values,
} from './fields';
import { scheduleVersionOf } from './schedule-versions';

/**
 * Timeline entries of a loan's events: a summary naming the loan as the screens do ("HL20200505 ·
 * SBI - Andheri") and the fields each event set, in the screens' words.
 */

/** Loan fields (`LOAN_FIELDS`), in the order the loan form shows them; ids by their catalog names. */
const LOAN_HISTORY = historyFields(LOAN_FIELDS, {
  bankId: (v, n) => (typeof v === 'number' ? (n.banks.get(v) ?? `Bank ${v}`) : null),
  loanTypeId: (v, n) => (typeof v === 'number' ? (n.loanTypes.get(v) ?? `Loan type ${v}`) : null),
});

const SCHEDULE_FIELDS: Record<string, Field> = {
  version: { label: 'Schedule Version', show: number },
  emi: { label: 'EMI', show: money },
  numberOfPayments: { label: 'Number of Payments', show: number },
  interest: { label: 'Interest', show: money },
  gst: { label: 'GST', show: money },
  total: { label: 'Total EMI', show: money },
};

type ScheduleEvent = ScheduleVersionEvent & { version: number };

/** What the schedule screen shows of a version: the EMI in force after its change, the totals. */
function scheduleFigures(type: string, s: ScheduleEvent | null) {
  const version = s && scheduleVersionOf(type, s, []);
  if (!version) return null;
  return {
    version: version.version,
    emi: version.emi,
    numberOfPayments: version.totals.numberOfPayments,
    interest: version.totals.interest,
    gst: version.totals.gst,
    total: version.totals.emi,
  };
}

/** A schedule version's entry: why it was made, and its figures against the version before. */
function scheduleEntry(type: string, data: ScheduleEvent, previous: Values, loan: string, names: Names) {
  const before = (previous as ScheduleEvent | null) ?? null;
  // Only a revision's data carries changes.
  const older = before && (before.changes === undefined ? 'ScheduleGenerated' : 'ScheduleRevised');
  return {
    summary: `Schedule version ${data.version} of loan ${loan}: ${scheduleWhy(data, before?.changes ?? [])}`,
    changes: diff(
      SCHEDULE_FIELDS,
      older ? scheduleFigures(older, before) : null,
      scheduleFigures(type, data),
      names,
    ),
  };
}

/** A recorded fact: each field from nothing to its value. */
const facts = (rows: readonly (readonly [string, FieldChange['to']])[]): FieldChange[] =>
  rows.filter(([, to]) => to !== null).map(([field, to]) => ({ field, from: null, to }));

const rupees = (paise: number) => money(paise, { banks: new Map(), loanTypes: new Map() });

type LoanEntry = { summary: string; changes: FieldChange[] };
type DataOf<T extends LoanStreamEvent['type']> = Extract<LoanStreamEvent, { type: T }>['data'];

/**
 * Each loan event's entry, from its stored data, the loan's name, the event `PREVIOUS_NEEDED` asks
 * for, and the catalog names. A loan event type without an entry here does not compile.
 */
const LOAN_ENTRIES: {
  [T in LoanStreamEvent['type']]: (
    data: DataOf<T>,
    loan: string,
    previous: Values,
    names: Names,
  ) => LoanEntry;
} = {
  LoanCreated: (d, loan, _p, names) => ({
    summary: `Loan ${loan} created`,
    changes: diff(LOAN_HISTORY, null, d, names),
  }),
  LoanUpdated: (d, loan, _p, names) => {
    // `previous` holds the old value of exactly the fields in `changes`.
    const changes = diff(LOAN_HISTORY, d.previous, d.changes, names);
    return { summary: `Loan ${loan} edited (${changes.map((c) => c.field).join(', ')})`, changes };
  },
  LoanDeleted: (_d, loan) => ({ summary: `Loan ${loan} deleted`, changes: [] }),
  ScheduleGenerated: (d, loan, previous, names) =>
    scheduleEntry('ScheduleGenerated', d as unknown as ScheduleEvent, previous, loan, names),
  ScheduleRevised: (d, loan, previous, names) =>
    scheduleEntry('ScheduleRevised', d as unknown as ScheduleEvent, previous, loan, names),
  LoanPrepaid: (d, loan) => ({
    summary: `Part-payment of ${formatInr(d.amount)} on loan ${loan}, ${
      d.choice === 'reduce-tenure' ? 'tenure reduced' : 'EMI reduced'
    }`,
    changes: facts([
      ['Date', d.date],
      ['Amount', rupees(d.amount)],
      ['Charge', d.charge > 0 ? rupees(d.charge) : null],
      ['After the part-payment', PREPAYMENT_CHOICE_WORDS[d.choice] ?? d.choice],
    ]),
  }),
  LoanRateChanged: (d, loan) => ({
    summary: `Rate of loan ${loan} reset to ${rateWords(d.annualRatePercent)} from ${dateWords(d.date)}`,
    changes: facts([
      ['Effective Date', d.date],
      ['New Annual Rate', rateWords(d.annualRatePercent)],
      ['Reset Option', RATE_OPTION_WORDS[d.option] ?? d.option],
      ['New EMI (before GST)', d.newEmi === null ? null : rupees(d.newEmi)],
    ]),
  }),
  EmiOverridden: (d, loan) => ({
    summary: `EMI of loan ${loan} set to ${formatInr(d.emi)} from ${dateWords(d.date)}`,
    changes: facts([
      ['Effective Date', d.date],
      ['EMI (before GST)', rupees(d.emi)],
    ]),
  }),
  LoanForeclosed: (d, loan) => ({
    summary: `Loan ${loan} foreclosed on ${dateWords(d.date)} (settlement ${formatInr(d.settlement.amount)})`,
    changes: facts([
      ['Date', d.date],
      ['Principal', rupees(d.settlement.principal)],
      ['Interest', rupees(d.settlement.interest)],
      ['GST', d.settlement.gst > 0 ? rupees(d.settlement.gst) : null],
      ['Charge', d.charge > 0 ? rupees(d.charge) : null],
      ['Settlement', rupees(d.settlement.amount)],
    ]),
  }),
  EmiMarkedPaid: (d, loan) => ({
    summary: `EMI ${d.paymentNumber} of loan ${loan} marked paid on ${dateWords(d.paidOn)} (${formatInr(d.amount)})`,
    changes: facts([
      ['EMI Number', d.paymentNumber],
      ['Paid On', d.paidOn],
      ['Amount', rupees(d.amount)],
      ['Matched to a debit', d.transactionId !== null],
    ]),
  }),
  EmisMarkedPaidUpTo: (d, loan) => ({
    summary: `${d.paymentNumbers.length} EMIs of loan ${loan} due up to ${dateWords(d.upTo)} marked paid on their due dates`,
    changes: facts([
      ['Up To', d.upTo],
      ['EMIs', d.paymentNumbers.length > 0 ? d.paymentNumbers.join(', ') : null],
    ]),
  }),
  EmiMatched: (d, loan) => ({
    summary: `Debit of ${formatInr(d.amount)} on ${dateWords(d.paidOn)} matched to EMI ${d.paymentNumber} of loan ${loan}`,
    changes: facts([
      ['EMI Number', d.paymentNumber],
      ['Paid On', d.paidOn],
      ['Amount', rupees(d.amount)],
    ]),
  }),
  EmiMarkedMissed: (d, loan) => ({
    summary: `EMI ${d.paymentNumber} of loan ${loan} marked missed (bounced)`,
    changes: facts([['EMI Number', d.paymentNumber]]),
  }),
  EmiMarkUndone: (_d, loan) => ({ summary: `A payment mark on loan ${loan} undone`, changes: [] }),
  EmiMatchReleased: (d, loan) => ({
    summary:
      d.reason === 'transaction-deleted'
        ? `Match of a deleted debit to loan ${loan} released`
        : `Match of a debit to loan ${loan} undone`,
    changes: [],
  }),
  PreEmiInterestPaid: (d, loan) => ({
    summary: `Pre-EMI interest of ${formatInr(d.amount)} paid on ${dateWords(d.date)} for loan ${loan}`,
    changes: facts([
      ['Date', d.date],
      ['Amount', rupees(d.amount)],
    ]),
  }),
  ConstructionCompleted: (d, loan) => ({
    summary: `Construction financed by loan ${loan} completed on ${dateWords(d.date)}`,
    changes: facts([['Completed On', d.date]]),
  }),
};

const LOAN_TYPES = new Set<string>(loanStreamEventTypes);

/** Whether the timeline writes this event type's entry from `LOAN_ENTRIES`. */
export const isLoanEvent = (type: string): type is LoanStreamEvent['type'] => LOAN_TYPES.has(type);

/** The entry of a loan event; `loan` names the loan as the screens do. */
export function loanTimelineEntry(
  type: LoanStreamEvent['type'],
  data: Record<string, unknown>,
  loan: string,
  previous: Values,
  names: Names,
): LoanEntry {
  const write = LOAN_ENTRIES[type] as (d: unknown, l: string, p: Values, n: Names) => LoanEntry;
  return write(data, loan, previous, names);
}
