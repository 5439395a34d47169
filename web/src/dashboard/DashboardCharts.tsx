import { Card, H2, NonIdealState, Spinner } from '@blueprintjs/core';
import { useMemo } from 'react';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatDate, todayIso } from '../format';
import {
  axisMoney,
  axisMonth,
  cashflowSummary,
  chartMoney as money,
  outstandingSummary,
} from './chartFormat';
import { useGetAllLoansQuery, useGetMonthlyCashflowQuery } from './dashboardApi';
import { outstandingOverTime } from './outstanding';

/** The dashboard's two charts, loaded as their own chunk (recharts is large). */
export function DashboardCharts() {
  const cashflow = useGetMonthlyCashflowQuery();
  const loans = useGetAllLoansQuery();
  const outstanding = useMemo(() => outstandingOverTime(loans.data ?? []), [loans.data]);
  const hasCashflow = (cashflow.data ?? []).some((m) => m.credits !== 0 || m.debits !== 0);

  return (
    <div className="kosh-chart-grid">
      <Card className="kosh-chart-card" role="region" aria-label="Credits and debits, last 12 months">
        <H2 className="kosh-section-title">Credits vs debits (last 12 months)</H2>
        {cashflow.isLoading ? (
          <Spinner aria-label="Loading chart" />
        ) : !hasCashflow ? (
          <div className="kosh-chart">
            <NonIdealState
              icon="timeline-bar-chart"
              title="No credits or debits yet"
              description="Transactions and EMIs of the last 12 months appear here."
            />
          </div>
        ) : (
          <div className="kosh-chart" data-testid="cashflow-chart">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart
                data={cashflow.data}
                margin={{ top: 8, right: 8, left: 8, bottom: 0 }}
                title="Credits and debits, last 12 months"
                desc={cashflowSummary(cashflow.data ?? [])}
              >
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="label" tick={{ fontSize: 12 }} />
                <YAxis tickFormatter={axisMoney} tick={{ fontSize: 12 }} width={70} />
                <Tooltip formatter={money} />
                <Legend />
                <Bar dataKey="credits" name="Credits" fill="#238551" isAnimationActive={false} />
                <Bar dataKey="debits" name="Debits (incl. EMIs)" fill="#cd4246" isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        )}
        {hasCashflow ? <p className="kosh-chart-summary">{cashflowSummary(cashflow.data ?? [])}</p> : null}
      </Card>
      <Card className="kosh-chart-card" role="region" aria-label="Outstanding principal over time">
        <H2 className="kosh-section-title">Outstanding principal over time</H2>
        {loans.isLoading ? (
          <Spinner aria-label="Loading chart" />
        ) : outstanding.length === 0 ? (
          <div className="kosh-chart">
            <NonIdealState
              icon="timeline-area-chart"
              title="No loans yet"
              description="Add a loan to see how its principal comes down."
            />
          </div>
        ) : (
          <div className="kosh-chart" data-testid="outstanding-chart">
            <ResponsiveContainer width="100%" height="100%">
              <AreaChart
                data={outstanding}
                margin={{ top: 8, right: 8, left: 8, bottom: 0 }}
                title="Outstanding principal over time"
                desc={outstandingSummary(outstanding, todayIso())}
              >
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="date" tickFormatter={axisMonth} tick={{ fontSize: 12 }} minTickGap={24} />
                <YAxis tickFormatter={axisMoney} tick={{ fontSize: 12 }} width={70} />
                <Tooltip formatter={money} labelFormatter={(d) => formatDate(String(d))} />
                <Area
                  type="stepAfter"
                  dataKey="outstanding"
                  name="Outstanding principal"
                  stroke="#2d72d2"
                  fill="#2d72d2"
                  fillOpacity={0.2}
                  isAnimationActive={false}
                />
              </AreaChart>
            </ResponsiveContainer>
          </div>
        )}
        {outstanding.length > 0 ? (
          <p className="kosh-chart-summary">{outstandingSummary(outstanding, todayIso())}</p>
        ) : null}
      </Card>
    </div>
  );
}
