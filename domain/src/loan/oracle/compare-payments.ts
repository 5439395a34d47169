/**
 * Test-only: random histories of EMI marks, matches, missed marks, pre-EMI interest, construction
 * and undos on a generated loan; production's standings and certificate figures for every
 * financial year the loan spans, against the oracle's.
 */
import { assertNever } from '../../shared/messages';
import type { ActualScheduleRow } from '../actual-schedule';
import { financialYearFigures } from '../certificate';
import type { LoanPaymentEvent } from '../events';
import { emiStandings, evolvePayments, noPayments } from '../payments';
import {
  foldSteps,
  type OracleMark,
  type OracleStep,
  oracleFigures,
  oracleStanding,
  oracleStandings,
} from './certificate-oracle';
import type { OracleRow } from './exact';
import { int, type Rng } from './generate';

const plusDays = (date: string, days: number): string => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
const between = (rng: Rng, from: string, to: string) =>
  to <= from ? from : plusDays(from, int(rng, 0, daysBetween(from, to)));

export type PaymentHistory = Readonly<{ steps: OracleStep[]; autoDebit: boolean; today: string }>;

/**
 * A history the decider would accept: hand payments and matches only on EMIs not yet covered
 * (several per EMI, partial and over-payments), paid-up-to over the EMIs with nothing marked,
 * missed marks on EMIs due and not covered, undos of any live mark, pre-EMI interest and
 * construction dates from the start date, everything on or before `today`.
 */
export function generateHistory(rng: Rng, rows: readonly OracleRow[], startDate: string): PaymentHistory {
  const emis = rows.filter((r) => r.kind === 'emi');
  const last = rows.at(-1)?.date ?? startDate;
  const today = between(rng, startDate, plusDays(last, 400));
  const autoDebit = rng() < 0.5;
  const steps: OracleStep[] = [];
  const wanted = rng() < 0.1 ? 0 : int(rng, 1, 25);
  let ids = 0;
  // EMIs around today draw most marks, so one EMI often gets several.
  const near = emis.filter((r) => Math.abs(daysBetween(r.date, today)) < 200);
  const someEmi = () => {
    const from = near.length > 0 && rng() < 0.7 ? near : emis;
    return from[int(rng, 0, from.length - 1)];
  };
  for (let s = 0; s < wanted; s++) {
    const ledger = foldSteps(steps);
    // Marks are refused on covered EMIs whatever auto-debit says (a mark overrides it).
    const standingOf = (row: OracleRow) => oracleStanding(row, ledger.marks, null, false, today);
    const id = `m${++ids}`;
    const roll = rng();
    if (roll < 0.45) {
      const row = someEmi();
      const standing = row && standingOf(row);
      if (!row || !standing || standing.remainder === 0) continue;
      const pick = rng();
      const amount =
        pick < 0.4
          ? standing.remainder
          : pick < 0.8
            ? int(rng, 1, standing.remainder)
            : standing.remainder + int(rng, 1, 100_000);
      let on = plusDays(row.date, int(rng, -40, 60));
      if (on > today) on = today;
      const kind = rng() < 0.7 ? 'paid' : 'matched';
      const mark: OracleMark = {
        id,
        kind,
        emi: row.paymentNumber,
        on,
        amount,
        txn: kind === 'matched' ? `t${id}` : null,
      };
      steps.push({ kind: 'mark', mark });
    } else if (roll < 0.55) {
      const upTo = between(rng, startDate, today);
      const numbers = oracleStandings(rows, ledger.marks, false, today)
        .filter((x) => x.dueDate <= upTo && x.payments.length === 0 && x.missedMarkId === null)
        .map((x) => x.paymentNumber);
      if (numbers.length > 0) steps.push({ kind: 'mark', mark: { id, kind: 'up-to', upTo, emis: numbers } });
    } else if (roll < 0.7) {
      const row = someEmi();
      const standing = row && standingOf(row);
      if (standing && standing.dueDate <= today && standing.missedMarkId === null && standing.remainder > 0)
        steps.push({ kind: 'mark', mark: { id, kind: 'missed', emi: standing.paymentNumber } });
    } else if (roll < 0.85) {
      const live = ledger.marks;
      const mark = live[int(rng, 0, live.length - 1)];
      if (mark) steps.push({ kind: 'undo', id: mark.id, release: mark.kind === 'matched' });
    } else if (roll < 0.95) {
      const amount = rng() < 0.15 ? int(rng, 1, 5) : int(rng, 1, 50_000_000);
      steps.push({ kind: 'mark', mark: { id, kind: 'pre-emi', on: between(rng, startDate, today), amount } });
    } else {
      steps.push({ kind: 'construction', on: between(rng, startDate, today) });
    }
  }
  return { steps, autoDebit, today };
}

/** The history as the events production records (an undo of a match is its release). */
function eventsOf(steps: readonly OracleStep[]): LoanPaymentEvent[] {
  const ids = { loanId: 'loan', userId: 'user', recordedAt: '2026-01-01T00:00:00.000Z' };
  return steps.map((step): LoanPaymentEvent => {
    if (step.kind === 'construction')
      return { type: 'ConstructionCompleted', data: { ...ids, date: step.on } };
    if (step.kind === 'undo')
      return step.release
        ? {
            type: 'EmiMatchReleased',
            data: { ...ids, markId: step.id, transactionId: `t${step.id}`, reason: 'undone' },
          }
        : { type: 'EmiMarkUndone', data: { ...ids, markId: step.id } };
    const m = step.mark;
    const markId = m.id;
    switch (m.kind) {
      case 'paid':
        return {
          type: 'EmiMarkedPaid',
          data: { ...ids, markId, paymentNumber: m.emi, paidOn: m.on, amount: m.amount, transactionId: null },
        };
      case 'matched':
        return {
          type: 'EmiMatched',
          data: {
            ...ids,
            markId,
            paymentNumber: m.emi,
            transactionId: m.txn ?? '',
            paidOn: m.on,
            amount: m.amount,
          },
        };
      case 'up-to':
        return { type: 'EmisMarkedPaidUpTo', data: { ...ids, markId, upTo: m.upTo, paymentNumbers: m.emis } };
      case 'missed':
        return { type: 'EmiMarkedMissed', data: { ...ids, markId, paymentNumber: m.emi } };
      case 'pre-emi':
        return { type: 'PreEmiInterestPaid', data: { ...ids, markId, date: m.on, amount: m.amount } };
      default:
        return assertNever(m);
    }
  });
}

export type PaymentTally = {
  histories: number;
  steps: number;
  undos: number;
  standings: number;
  years: number;
};

/** JSON with keys sorted: the same fields and values whatever order they were written in. */
const canon = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );

const fyOf = (date: string) => Number(date.slice(0, 4)) - (date.slice(5) < '04-01' ? 1 : 0);
const label = (fy: number) => `${fy}-${String((fy + 1) % 100).padStart(2, '0')}`;

/** Differences between production and the oracle on one history, as readable lines (at most 3). */
export function paymentDifferences(
  rng: Rng,
  productionRows: readonly ActualScheduleRow[],
  oracleRows: readonly OracleRow[],
  startDate: string,
  tally: PaymentTally,
): string[] {
  const history = generateHistory(rng, oracleRows, startDate);
  const { steps, autoDebit, today } = history;
  const ledger = foldSteps(steps);
  const payments = eventsOf(steps).reduce(evolvePayments, noPayments);
  tally.histories++;
  tally.steps += steps.length;
  tally.undos += steps.filter((s) => s.kind === 'undo').length;
  const found: string[] = [];
  const context = `history ${JSON.stringify(history)}`;
  const expected = oracleStandings(oracleRows, ledger.marks, autoDebit, today);
  const actual = emiStandings(productionRows, payments.marks, autoDebit, today);
  tally.standings += expected.length;
  for (let i = 0; i < Math.max(expected.length, actual.length) && found.length < 3; i++)
    if (canon(actual[i]) !== canon(expected[i]))
      found.push(
        `standing ${i + 1}: production ${JSON.stringify(actual[i])} oracle ${JSON.stringify(expected[i])}\n  ${context}`,
      );
  const lastDay = [oracleRows.at(-1)?.date ?? startDate, today].sort()[1]!;
  let to = fyOf(lastDay);
  if (ledger.constructionOn !== null) to = Math.max(to, fyOf(ledger.constructionOn) + 5);
  for (let fy = fyOf(startDate); fy <= to && found.length < 3; fy++) {
    tally.years++;
    const want = oracleFigures(oracleRows, expected, ledger, fy);
    const { fy: _year, ...got } = financialYearFigures(productionRows, label(fy), {
      marks: payments.marks,
      emisAutoDebited: autoDebit,
      constructionCompletedOn: payments.constructionCompletedOn,
      today,
    });
    if (canon(got) !== canon(want))
      found.push(
        `FY ${label(fy)}: production ${JSON.stringify(got)} oracle ${JSON.stringify(want)}\n  ${context}`,
      );
  }
  return found;
}
