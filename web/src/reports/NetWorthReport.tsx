import { Card, H2, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import {
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { axisMoney, axisMonth, chartMoney } from '../dashboard/chartFormat';
import { formatDate, formatMoney } from '../format';
import { TableScroll } from '../ui/TableScroll';
import { ExportCsvButton, signClass } from './ExportCsvButton';
import { type NetWorth, useGetNetWorthQuery } from './reportsApi';

/** The report in words: where net worth started, where it stands, and what makes it up now. */
export function netWorthSummary(report: NetWorth): string {
  const first = report.points[0];
  const last = report.points.at(-1);
  if (!first || !last) return 'Nothing recorded yet.';
  return (
    `Net worth ${formatMoney(last.net_worth)} on ${formatDate(last.date)}: accounts ${formatMoney(last.accounts)} ` +
    `less loans ${formatMoney(last.loans)}. It was ${formatMoney(first.net_worth)} on ${formatDate(first.date)}.`
  );
}

/** Net worth at each month's end, the last 24 (issue 31): accounts less the loans' principal. */
export function NetWorthReport({ asOf }: { asOf: string | null }) {
  const report = useGetNetWorthQuery(asOf ? { asOf } : {}, { refetchOnMountOrArgChange: true });
  const data = report.data;
  const empty = data ? data.points.every((p) => p.accounts === 0 && p.loans === 0) : true;

  return (
    <Card className="kosh-panel" role="region" aria-label="Net worth over time">
      <div className="kosh-report-head">
        <H2 className="kosh-section-title">Net worth over time</H2>
        <ExportCsvButton
          path="/api/reports/net-worth.csv"
          asOf={asOf}
          fileName={`net-worth-${data?.as_of ?? 'report'}.csv`}
        />
      </div>
      {report.isLoading ? (
        <Spinner aria-label="Loading report" />
      ) : !data ? (
        <p className="kosh-muted">Failed to load the net worth report</p>
      ) : empty ? (
        <NonIdealState
          icon="timeline-line-chart"
          title="No accounts or loans yet"
          description="Open an account or add a loan to see your net worth month by month."
        />
      ) : (
        <>
          <div className="kosh-chart" data-testid="net-worth-chart">
            <ResponsiveContainer width="100%" height="100%">
              <ComposedChart
                data={data.points}
                margin={{ top: 8, right: 8, left: 8, bottom: 0 }}
                title="Net worth over time"
                desc={netWorthSummary(data)}
              >
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="date" tickFormatter={axisMonth} tick={{ fontSize: 12 }} minTickGap={24} />
                <YAxis tickFormatter={axisMoney} tick={{ fontSize: 12 }} width={70} />
                <Tooltip formatter={chartMoney} labelFormatter={(d) => formatDate(String(d))} />
                <Legend />
                <Line
                  dataKey="accounts"
                  name="Accounts"
                  stroke="#238551"
                  dot={false}
                  isAnimationActive={false}
                />
                <Line
                  dataKey="loans"
                  name="Loans outstanding"
                  stroke="#cd4246"
                  dot={false}
                  isAnimationActive={false}
                />
                <Line
                  dataKey="net_worth"
                  name="Net worth"
                  stroke="#2d72d2"
                  strokeWidth={3}
                  dot={false}
                  isAnimationActive={false}
                />
              </ComposedChart>
            </ResponsiveContainer>
          </div>
          <p className="kosh-chart-summary">{netWorthSummary(data)}</p>
          <TableScroll label="Net worth by month">
            <HTMLTable compact striped className="kosh-report-table">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col" className="kosh-amount">
                    Accounts
                  </th>
                  <th scope="col" className="kosh-amount">
                    Loans outstanding
                  </th>
                  <th scope="col" className="kosh-amount">
                    Net worth
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...data.points].reverse().map((p) => (
                  <tr key={p.date}>
                    <th scope="row">{formatDate(p.date)}</th>
                    <td className="kosh-amount">{formatMoney(p.accounts)}</td>
                    <td className="kosh-amount">{formatMoney(p.loans)}</td>
                    <td className={`kosh-amount ${signClass(p.net_worth)}`}>{formatMoney(p.net_worth)}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </TableScroll>
        </>
      )}
    </Card>
  );
}
