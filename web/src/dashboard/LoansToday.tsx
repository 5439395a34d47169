import { Card, H3 } from '@blueprintjs/core';
import { Link } from 'wouter';
import { formatMoney } from '../format';
import { bankLabel, closingLabel, currentRateLabel } from '../loans/loanDisplay';
import type { Loan } from '../loans/loansApi';
import { useGetAllLoansQuery } from './dashboardApi';

/** One loan's present in a line: its EMI, rate, EMIs left, end and what is still owed. */
export function presentLine(loan: Loan): string {
  const now = loan.current;
  if (!now) return currentRateLabel(loan);
  return [
    now.emi === null ? null : `EMI ${formatMoney(now.emi)}`,
    currentRateLabel(loan),
    `${now.emisLeft} ${now.emisLeft === 1 ? 'EMI' : 'EMIs'} left`,
    `ends ${closingLabel(loan)}`,
    `${formatMoney(now.outstandingPrincipal)} owed`,
  ]
    .filter((part) => part !== null)
    .join(' · ');
}

/** The dashboard's loans as they stand today (after part-payments and resets), the active ones. */
export function LoansToday() {
  const loans = useGetAllLoansQuery();
  const active = (loans.data ?? []).filter((loan) => loan.status !== 'Completed' && loan.current);
  if (active.length === 0) return null;
  return (
    <Card className="kosh-panel" role="region" aria-label="Your loans today">
      <H3 className="kosh-section-title">Your loans today</H3>
      <ul className="kosh-loans-today">
        {active.map((loan) => (
          <li key={loan.id}>
            <Link href={`/loans/${loan.id}`} className="kosh-strong">
              {loan.accountNumber} · {bankLabel(loan.bank)}
            </Link>
            <div className="kosh-muted">{presentLine(loan)}</div>
          </li>
        ))}
      </ul>
    </Card>
  );
}
