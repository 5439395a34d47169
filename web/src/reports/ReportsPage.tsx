import { Tab, Tabs } from '@blueprintjs/core';
import { useLocation, useSearch } from 'wouter';
import { PageHeader } from '../app/layout/PageHeader';
import { useAsOfMode } from '../history/asOf';
import { CashFlowReport } from './CashFlowReport';
import { IncomeExpenseReport } from './IncomeExpenseReport';
import { NetWorthReport } from './NetWorthReport';
import { SpendingReport } from './SpendingReport';
import './reports.css';
import '../ui/money-screens.css';

const REPORTS = [
  { id: 'spending', title: 'Spending', Report: SpendingReport },
  { id: 'income-expense', title: 'Income vs expense', Report: IncomeExpenseReport },
  { id: 'net-worth', title: 'Net worth', Report: NetWorthReport },
  { id: 'cash-flow', title: 'Cash flow', Report: CashFlowReport },
] as const;
type ReportId = (typeof REPORTS)[number]['id'];

const isReport = (value: string | null): value is ReportId => REPORTS.some((r) => r.id === value);

/** /reports (issue 31): one report at a time, chosen by tab and kept in the URL with the as-of date. */
export function ReportsPage() {
  const asOfMode = useAsOfMode('the reports');
  const { asOf } = asOfMode;
  const search = useSearch();
  const [location, navigate] = useLocation();
  const chosen = new URLSearchParams(search).get('report');
  const report: ReportId = isReport(chosen) ? chosen : REPORTS[0].id;
  const choose = (id: ReportId) => {
    const params = new URLSearchParams(search);
    params.set('report', id);
    navigate(`${location}?${params.toString()}`, { replace: true });
  };

  return (
    <>
      <PageHeader
        title="Reports"
        subtitle="Where the money goes, month by month, what you are worth net of your loans, and what is due next"
        actions={<div className="kosh-header-buttons">{asOfMode.control}</div>}
      />
      {asOfMode.banner}
      <Tabs
        id="kosh-reports"
        className="kosh-report-tabs"
        selectedTabId={report}
        onChange={(id) => choose(id as ReportId)}
        large
        // Four tabs wrap at 390 px: the sliding indicator would stay on the first row, past the screen.
        animate={false}
        renderActiveTabPanelOnly
      >
        {REPORTS.map((r) => (
          <Tab key={r.id} id={r.id} title={r.title} panel={<r.Report asOf={asOf} />} />
        ))}
      </Tabs>
    </>
  );
}
