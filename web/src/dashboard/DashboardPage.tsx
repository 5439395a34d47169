import { Button, Card, H2, Intent, Spinner } from '@blueprintjs/core';
import { lazy, Suspense } from 'react';
import { useLocation } from 'wouter';
import { PageHeader } from '../app/layout/PageHeader';
import { useAppSelector } from '../app/store';
import { useAuditAccount } from '../audit/auditMode';
import { SharedWithYouNotice } from '../audit/SharedWithYouNotice';
import { BudgetsThisMonth } from '../budgets/BudgetsThisMonth';
import { formatMoney } from '../format';
import { useGetLoanStatsQuery } from '../loans/loansApi';
import { StatCard, StatGrid } from '../ui/StatCard';
import { LoansToday } from './LoansToday';

const DashboardCharts = lazy(async () => ({ default: (await import('./DashboardCharts')).DashboardCharts }));

function percent(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '0%';
}

const QUICK_ACTIONS = [
  { href: '/loans/create', icon: 'add', text: 'Create New Loan', writes: true },
  { href: '/transactions', icon: 'exchange', text: 'Transaction Book' },
  { href: '/loans', icon: 'list', text: 'All Loans' },
  { href: '/profile', icon: 'user', text: 'Profile' },
] as const;

/** /dashboard (spec section 2), with the charts of issue 7. */
export function DashboardPage() {
  const [, navigate] = useLocation();
  const firstName = useAppSelector((state) => state.session.user?.firstName) || 'User';
  const stats = useGetLoanStatsQuery();
  // An auditor reads another's figures: the heading names whose they are, not the reader.
  const audited = useAuditAccount();
  const readOnly = audited !== null;
  const s = stats.data;

  return (
    <>
      {audited ? (
        <PageHeader
          title={`${audited.ownerName}'s dashboard`}
          subtitle={`${audited.ownerName}'s loans and money at a glance, read-only`}
        />
      ) : (
        <PageHeader title={`Welcome back, ${firstName}!`} subtitle="Your loans and money at a glance" />
      )}
      <SharedWithYouNotice />
      <StatGrid>
        <StatCard label="Total Loans" icon="folder-close" value={s ? s.totalLoans : '—'} />
        <StatCard
          label="Active Loans"
          icon="pulse"
          intent={Intent.PRIMARY}
          value={s ? s.activeLoans : '—'}
          detail={s ? `${percent(s.activeLoans, s.totalLoans)} of total` : undefined}
        />
        <StatCard label="Total Amount" icon="bank-account" value={s ? formatMoney(s.totalAmount) : '—'} />
        <StatCard
          label="Remaining Amount"
          icon="time"
          intent={Intent.WARNING}
          value={s ? formatMoney(s.remainingAmount) : '—'}
          detail={s ? `${percent(s.remainingAmount, s.totalAmount)} pending` : undefined}
        />
      </StatGrid>
      {stats.isError ? <p className="kosh-muted">Failed to fetch statistics</p> : null}
      <LoansToday />
      <BudgetsThisMonth />
      <Card className="kosh-panel">
        <H2 className="kosh-section-title">Quick Actions</H2>
        <div className="kosh-quick-actions">
          {QUICK_ACTIONS.filter((action) => !(readOnly && 'writes' in action)).map((action) => (
            <Button
              key={action.href}
              icon={action.icon}
              text={action.text}
              onClick={() => navigate(action.href)}
            />
          ))}
        </div>
      </Card>
      {/* The charts (recharts, their own chunk) wait for the cards: evaluating that chunk takes the
          main thread for about 200 ms of a cold start, and the cards are what the screen is for. */}
      {stats.isLoading ? (
        <Spinner aria-label="Loading charts" />
      ) : (
        <Suspense fallback={<Spinner aria-label="Loading charts" />}>
          <DashboardCharts />
        </Suspense>
      )}
    </>
  );
}
