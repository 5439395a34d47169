import { Card, H2, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { axisMoney, chartMoney } from '../dashboard/chartFormat';
import { formatMoney } from '../format';
import { TableScroll } from '../ui/TableScroll';
import { ExportCsvButton, signClass } from './ExportCsvButton';
import { type IncomeExpense, useGetIncomeExpenseQuery } from './reportsApi';

const SHORT = (name: string, year: number) => `${name.slice(0, 3)} ${String(year).slice(2)}`;

/** The report in words, for the chart's description and the line under it. */
export function incomeExpenseSummary(report: IncomeExpense): string {
  const { totals, months } = report;
  const out = totals.expense + totals.loan_payments;
  const surplus = months.filter((m) => m.net > 0).length;
  const deficit = months.filter((m) => m.net < 0).length;
  return (
    `Over ${months.length} months: income ${formatMoney(totals.income)}, expense ${formatMoney(totals.expense)}, ` +
    `loan payments ${formatMoney(totals.loan_payments)} (${formatMoney(out)} out), net ${formatMoney(totals.net)}. ` +
    `Months in surplus: ${surplus}; in deficit: ${deficit}.`
  );
}

/** Income against expense by month, the last 24 (issue 31): a chart and a table. */
export function IncomeExpenseReport({ asOf }: { asOf: string | null }) {
  const report = useGetIncomeExpenseQuery(asOf ? { asOf } : {}, { refetchOnMountOrArgChange: true });
  const data = report.data;
  const empty = data
    ? data.months.every((m) => m.income === 0 && m.expense === 0 && m.loan_payments === 0)
    : true;
  const chart = (data?.months ?? []).map((m) => ({ ...m, label: SHORT(m.month_name, m.year) }));

  return (
    <Card className="kosh-panel" role="region" aria-label="Income against expense">
      <div className="kosh-report-head">
        <H2 className="kosh-section-title">Income against expense, by month</H2>
        <ExportCsvButton
          path="/api/reports/income-expense.csv"
          asOf={asOf}
          fileName={`income-expense-${data?.as_of ?? 'report'}.csv`}
        />
      </div>
      {report.isLoading ? (
        <Spinner aria-label="Loading report" />
      ) : !data ? (
        <p className="kosh-muted">Failed to load the income and expense report</p>
      ) : empty ? (
        <NonIdealState
          icon="timeline-bar-chart"
          title="No income or expense yet"
          description="Credits, debits and EMIs of the last 24 months appear here."
        />
      ) : (
        <>
          <div className="kosh-chart" data-testid="income-expense-chart">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart
                data={chart}
                margin={{ top: 8, right: 8, left: 8, bottom: 0 }}
                title="Income against expense by month"
                desc={incomeExpenseSummary(data)}
              >
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={8} />
                <YAxis tickFormatter={axisMoney} tick={{ fontSize: 12 }} width={70} />
                <Tooltip formatter={chartMoney} />
                <Legend />
                <Bar dataKey="income" name="Income" fill="#238551" isAnimationActive={false} />
                <Bar
                  dataKey="expense"
                  name="Expense"
                  stackId="out"
                  fill="#cd4246"
                  isAnimationActive={false}
                />
                <Bar
                  dataKey="loan_payments"
                  name="Loan payments"
                  stackId="out"
                  fill="#c87619"
                  isAnimationActive={false}
                />
              </BarChart>
            </ResponsiveContainer>
          </div>
          <p className="kosh-chart-summary">{incomeExpenseSummary(data)}</p>
          <TableScroll label="Income against expense by month">
            <HTMLTable compact striped className="kosh-report-table">
              <thead>
                <tr>
                  <th scope="col">Month</th>
                  <th scope="col" className="kosh-amount">
                    Income
                  </th>
                  <th scope="col" className="kosh-amount">
                    Expense
                  </th>
                  <th scope="col" className="kosh-amount">
                    Loan payments
                  </th>
                  <th scope="col" className="kosh-amount">
                    Net
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...data.months].reverse().map((m) => (
                  <tr key={`${m.year}-${m.month}`}>
                    <th scope="row">
                      {m.month_name} {m.year}
                    </th>
                    <td className="kosh-amount">{formatMoney(m.income)}</td>
                    <td className="kosh-amount">{formatMoney(m.expense)}</td>
                    <td className="kosh-amount">{formatMoney(m.loan_payments)}</td>
                    <td className={`kosh-amount ${signClass(m.net)}`}>{formatMoney(m.net)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Total</th>
                  <td className="kosh-amount">{formatMoney(data.totals.income)}</td>
                  <td className="kosh-amount">{formatMoney(data.totals.expense)}</td>
                  <td className="kosh-amount">{formatMoney(data.totals.loan_payments)}</td>
                  <td className={`kosh-amount ${signClass(data.totals.net)}`}>
                    {formatMoney(data.totals.net)}
                  </td>
                </tr>
              </tfoot>
            </HTMLTable>
          </TableScroll>
        </>
      )}
    </Card>
  );
}
