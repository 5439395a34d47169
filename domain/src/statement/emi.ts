import { daysBetween } from '../loan/dates';
import { dateWords } from '../loan/words';
import { formatInr, type Paise } from '../money';
import type { StatementRow } from './row';
import { textTokens } from './similar';

/** An EMI of one of the user's loans that is not paid yet. */
export type EmiDue = {
  loanId: string;
  emiNumber: number;
  accountNumber: string | null;
  lenderName: string | null;
  dueDate: string;
  amount: Paise;
};

export type EmiMatch = { emi: EmiDue; reason: string };

const DAYS_FROM_DUE = 5;

function evidence(row: StatementRow, emi: EmiDue): { days: number; reasons: string[] } {
  const days = Math.abs(daysBetween(emi.dueDate, row.date!));
  const reasons: string[] = [];
  if (days <= DAYS_FROM_DUE)
    reasons.push(days === 0 ? 'on the due date' : `${days} day${days === 1 ? '' : 's'} from the due date`);
  const compact = row.narration.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const account = (emi.accountNumber ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (account.length >= 4 && compact.includes(account))
    reasons.push(`the narration names loan account ${emi.accountNumber}`);
  const lender = textTokens(emi.lenderName ?? '');
  const words = textTokens(row.narration);
  if (lender.size > 0 && [...lender].every((word) => words.has(word))) {
    reasons.push(`the narration names ${emi.lenderName}`);
  }
  const channel = /\b(NACH|ACH|EMI)\b/i.exec(row.narration);
  if (channel) reasons.push(`the narration says ${channel[1]!.toUpperCase()}`);
  return { days, reasons };
}

/**
 * The EMI an imported debit pays: the amount equals the EMI due, and the date is within 5 days
 * of the due date or the narration names the loan's account number, its lender, ACH/NACH or
 * EMI. With several candidates the one with the most evidence, then the closest due date, wins;
 * `taken` holds `loanId#emiNumber` of EMIs already matched by earlier rows.
 */
export function matchEmi(
  row: StatementRow,
  emis: readonly EmiDue[],
  taken: ReadonlySet<string>,
): EmiMatch | null {
  if (row.kind !== 'transaction' || row.date === null || row.amount >= 0) return null;
  let best: { emi: EmiDue; days: number; reasons: string[] } | null = null;
  for (const emi of emis) {
    if (emi.amount !== -row.amount || taken.has(emiKey(emi))) continue;
    const found = evidence(row, emi);
    if (found.reasons.length === 0) continue;
    if (
      best === null ||
      found.reasons.length > best.reasons.length ||
      (found.reasons.length === best.reasons.length && found.days < best.days)
    ) {
      best = { emi, ...found };
    }
  }
  if (best === null) return null;
  return {
    emi: best.emi,
    reason: `EMI ${best.emi.emiNumber} due ${dateWords(best.emi.dueDate)} (${formatInr(best.emi.amount)}): same amount, ${best.reasons.join(', ')}`,
  };
}

export function emiKey(emi: EmiDue): string {
  return `${emi.loanId}#${emi.emiNumber}`;
}
