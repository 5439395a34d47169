import {
  Card,
  FormGroup,
  H2,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  NonIdealState,
  Spinner,
} from '@blueprintjs/core';
import { Fragment, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { axisMoney, chartMoney } from '../dashboard/chartFormat';
import { formatDate, formatMoney, MONTH_NAMES, todayIso } from '../format';
import { TableScroll } from '../ui/TableScroll';
import { ExportCsvButton } from './ExportCsvButton';
import { periodParams, type Spending, type SpendingPeriodArgs, useGetSpendingQuery } from './reportsApi';

const COLOURS = [
  '#2d72d2',
  '#cd4246',
  '#238551',
  '#c87619',
  '#7961db',
  '#147eb3',
  '#d1980b',
  '#634dbf',
  '#00a396',
];

/** The report in words: the total and where most of it went. */
export function spendingSummary(report: Spending): string {
  const top = report.categories.slice(0, 3).map((c) => `${c.name} ${formatMoney(c.amount)} (${c.share}%)`);
  if (top.length === 0) return `Nothing spent in ${periodText(report)}.`;
  return `Spent ${formatMoney(report.total)} in ${periodText(report)}. Most went to ${top.join(', ')}.`;
}

function periodText(report: Spending): string {
  const { period } = report;
  return period.kind === 'range' ? `${formatDate(period.from)} to ${formatDate(period.to)}` : period.label;
}

/** The financial year (April to March) a date falls in, by the year it starts. */
const financialYearOf = (iso: string) => Number(iso.slice(0, 4)) - (Number(iso.slice(5, 7)) < 4 ? 1 : 0);

/** The period's controls: a month, a financial year or any range; each change asks again. */
function PeriodPicker({
  period,
  onChange,
  today,
}: {
  period: SpendingPeriodArgs;
  onChange: (period: SpendingPeriodArgs) => void;
  today: string;
}) {
  const year = Number(today.slice(0, 4));
  const years = Array.from({ length: 10 }, (_, i) => year - 5 + i);
  const kindOf = (kind: string): SpendingPeriodArgs => {
    if (kind === 'financial-year') return { kind, fy: financialYearOf(today) };
    if (kind === 'range') return { kind, from: `${today.slice(0, 8)}01`, to: today };
    return { kind: 'month', month: Number(today.slice(5, 7)), year };
  };
  return (
    <div className="kosh-report-controls">
      <FormGroup label="Period" labelFor="spending-period">
        <HTMLSelect
          id="spending-period"
          value={period.kind}
          onChange={(e) => onChange(kindOf(e.target.value))}
          options={[
            { value: 'month', label: 'A month' },
            { value: 'financial-year', label: 'A financial year' },
            { value: 'range', label: 'Any range' },
          ]}
        />
      </FormGroup>
      {period.kind === 'month' ? (
        <>
          <FormGroup label="Month" labelFor="spending-month">
            <HTMLSelect
              id="spending-month"
              value={period.month}
              onChange={(e) => onChange({ ...period, month: Number(e.target.value) })}
              options={MONTH_NAMES.map((name, i) => ({ value: i + 1, label: name }))}
            />
          </FormGroup>
          <FormGroup label="Year" labelFor="spending-year">
            <HTMLSelect
              id="spending-year"
              value={period.year}
              onChange={(e) => onChange({ ...period, year: Number(e.target.value) })}
              options={years}
            />
          </FormGroup>
        </>
      ) : null}
      {period.kind === 'financial-year' ? (
        <FormGroup label="Financial year" labelFor="spending-fy">
          <HTMLSelect
            id="spending-fy"
            value={period.fy}
            onChange={(e) => onChange({ ...period, fy: Number(e.target.value) })}
            options={years.map((y) => ({
              value: y,
              label: `FY ${y}-${String((y + 1) % 100).padStart(2, '0')}`,
            }))}
          />
        </FormGroup>
      ) : null}
      {period.kind === 'range' ? (
        <>
          <FormGroup label="From" labelFor="spending-from">
            <InputGroup
              id="spending-from"
              type="date"
              value={period.from}
              // A cleared date keeps the last range asked (the page never blanks).
              onChange={(e) => e.target.value && onChange({ ...period, from: e.target.value })}
            />
          </FormGroup>
          <FormGroup label="To" labelFor="spending-to">
            <InputGroup
              id="spending-to"
              type="date"
              value={period.to}
              onChange={(e) => e.target.value && onChange({ ...period, to: e.target.value })}
            />
          </FormGroup>
        </>
      ) : null}
    </div>
  );
}

/** Spending by category over a month, a financial year or any range (issue 31): a chart and a table. */
export function SpendingReport({ asOf }: { asOf: string | null }) {
  const today = asOf ?? todayIso();
  const [period, setPeriod] = useState<SpendingPeriodArgs>({
    kind: 'month',
    month: Number(today.slice(5, 7)),
    year: Number(today.slice(0, 4)),
  });
  const report = useGetSpendingQuery(
    { period, ...(asOf ? { asOf } : {}) },
    { refetchOnMountOrArgChange: true },
  );
  const data = report.isError ? undefined : report.data;
  const chart = (data?.categories ?? []).map((c) => ({ name: c.name, amount: c.amount }));

  return (
    <Card className="kosh-panel" role="region" aria-label="Spending by category">
      <div className="kosh-report-head">
        <H2 className="kosh-section-title">Spending by category</H2>
        <ExportCsvButton
          path="/api/reports/spending.csv"
          query={periodParams(period)}
          asOf={asOf}
          fileName={data ? `spending-${data.period.from}-to-${data.period.to}.csv` : 'spending.csv'}
        />
      </div>
      <PeriodPicker period={period} onChange={setPeriod} today={today} />
      {report.isFetching && !data ? (
        <Spinner aria-label="Loading report" />
      ) : !data ? (
        <p className="kosh-muted">Failed to load the spending report</p>
      ) : data.categories.length === 0 ? (
        <NonIdealState
          icon="pie-chart"
          title="Nothing spent in this period"
          description="Debits and EMIs of the period appear here by category."
        />
      ) : (
        <>
          <div
            className="kosh-chart"
            data-testid="spending-chart"
            style={{ height: Math.max(160, 36 * chart.length + 40) }}
          >
            <ResponsiveContainer width="100%" height="100%">
              <BarChart
                data={chart}
                layout="vertical"
                margin={{ top: 8, right: 16, left: 8, bottom: 0 }}
                title="Spending by category"
                desc={spendingSummary(data)}
              >
                <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                <XAxis type="number" tickFormatter={axisMoney} tick={{ fontSize: 12 }} />
                <YAxis type="category" dataKey="name" width={110} tick={{ fontSize: 12 }} />
                <Tooltip formatter={chartMoney} />
                <Bar dataKey="amount" name="Spent" isAnimationActive={false}>
                  {chart.map((c, i) => (
                    <Cell key={c.name} fill={COLOURS[i % COLOURS.length]} />
                  ))}
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          </div>
          <p className="kosh-chart-summary">{spendingSummary(data)}</p>
          <TableScroll label="Spending by category">
            <HTMLTable compact className="kosh-report-table">
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  <th scope="col" className="kosh-amount">
                    Amount
                  </th>
                  <th scope="col" className="kosh-amount">
                    Share
                  </th>
                  <th scope="col" className="kosh-amount">
                    Entries
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.categories.map((row) => (
                  <Fragment key={row.id ?? row.name}>
                    <tr className="kosh-parent-row">
                      <td>
                        <strong>{row.name}</strong>
                      </td>
                      <td className="kosh-amount">
                        <strong>{formatMoney(row.amount)}</strong>
                      </td>
                      <td className="kosh-amount">{row.share.toFixed(1)}%</td>
                      <td className="kosh-amount">{row.count}</td>
                    </tr>
                    {row.children.map((child) => (
                      <tr key={child.id ?? child.name} className="kosh-child-row">
                        <td>
                          <span className="kosh-child-name">{child.name}</span>
                        </td>
                        <td className="kosh-amount">{formatMoney(child.amount)}</td>
                        <td className="kosh-amount">{child.share.toFixed(1)}%</td>
                        <td className="kosh-amount">{child.count}</td>
                      </tr>
                    ))}
                    {row.children.length > 0 && row.own_amount !== 0 ? (
                      <tr className="kosh-child-row">
                        <td>
                          <span className="kosh-child-name">{row.name} (itself)</span>
                        </td>
                        <td className="kosh-amount">{formatMoney(row.own_amount)}</td>
                        <td />
                        <td />
                      </tr>
                    ) : null}
                  </Fragment>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <td>Total</td>
                  <td className="kosh-amount">{formatMoney(data.total)}</td>
                  <td className="kosh-amount">100.0%</td>
                  <td />
                </tr>
              </tfoot>
            </HTMLTable>
          </TableScroll>
        </>
      )}
    </Card>
  );
}
