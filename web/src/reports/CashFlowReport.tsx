import { Button, Callout, Card, H2, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { downloadWithToken } from '../api/download';
import { useAppSelector } from '../app/store';
import { axisMoney, chartMoney } from '../dashboard/chartFormat';
import { formatDate, formatMoney, MONTH_NAMES } from '../format';
import { asOfParams } from '../history/asOf';
import { useGetCashFlowQuery } from '../recurring/recurringApi';
import { toast } from '../toaster';
import { TableScroll } from '../ui/TableScroll';

const monthLabel = (month: string) => `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;

/**
 * The Reports screen's cash-flow tab: what the recurring entries still to post and the loans'
 * unpaid EMIs will move in this month and the next two, as a chart and tables, with CSV export;
 * as of the screen's date.
 */
export function CashFlowReport({ asOf }: { asOf: string | null }) {
  const token = useAppSelector((state) => state.session.token);
  const forecast = useGetCashFlowQuery(asOf ? { asOf } : {});
  const data = forecast.data;
  const chart = (data?.months ?? []).map((m) => ({ ...m, label: monthLabel(m.month) }));

  const exportCsv = async () => {
    const query = new URLSearchParams({ ...asOfParams(asOf), format: 'csv' }).toString();
    const ok = await downloadWithToken(
      token,
      `/api/reports/cash-flow?${query}`,
      `cash-flow-${data?.from ?? ''}.csv`,
    );
    if (!ok) toast.error('Failed to export the forecast');
  };

  return (
    <>
      {forecast.isError ? (
        <Callout intent="danger" className="kosh-panel">
          Failed to load the cash-flow forecast
        </Callout>
      ) : null}
      {forecast.isLoading || !data ? (
        <Spinner size={24} aria-label="Loading the forecast" />
      ) : (
        <>
          <Card className="kosh-chart-card" role="region" aria-label="Money in and out by month">
            <div className="kosh-card-header">
              <H2 className="kosh-section-title">
                Cash-flow forecast, {formatDate(data.from)} to {formatDate(data.to)}
              </H2>
              <Button icon="download" text="Export CSV" onClick={exportCsv} />
            </div>
            {data.items.length === 0 ? (
              <NonIdealState
                icon="timeline-bar-chart"
                title="Nothing due"
                description="Recurring entries and loan EMIs due in the next three months appear here."
              />
            ) : (
              <div className="kosh-chart" data-testid="cash-flow-chart">
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={chart} margin={{ top: 8, right: 8, left: 8, bottom: 0 }}>
                    <CartesianGrid strokeDasharray="3 3" vertical={false} />
                    <XAxis dataKey="label" tick={{ fontSize: 12 }} />
                    <YAxis tickFormatter={axisMoney} tick={{ fontSize: 12 }} width={70} />
                    <Tooltip formatter={chartMoney} />
                    <Legend />
                    <Bar dataKey="inflow" name="Money in" fill="#238551" isAnimationActive={false} />
                    <Bar dataKey="outflow" name="Money out" fill="#cd4246" isAnimationActive={false} />
                  </BarChart>
                </ResponsiveContainer>
              </div>
            )}
          </Card>
          <Card>
            <TableScroll label="Forecast by month table">
              <HTMLTable striped className="kosh-stack" aria-label="Forecast by month">
                <thead>
                  <tr>
                    <th>Month</th>
                    <th className="kosh-num">Money in</th>
                    <th className="kosh-num">Money out</th>
                    <th className="kosh-num">Net</th>
                    <th className="kosh-num">Running net</th>
                  </tr>
                </thead>
                <tbody>
                  {data.months.map((m) => (
                    <tr key={m.month}>
                      <td data-label="Month">{monthLabel(m.month)}</td>
                      <td data-label="Money in" className="kosh-num kosh-credit">
                        {formatMoney(m.inflow)}
                      </td>
                      <td data-label="Money out" className="kosh-num kosh-debit">
                        {formatMoney(m.outflow)}
                      </td>
                      <td data-label="Net" className={`kosh-num ${m.net < 0 ? 'kosh-debit' : 'kosh-credit'}`}>
                        {formatMoney(m.net)}
                      </td>
                      <td data-label="Running net" className="kosh-num">
                        {formatMoney(m.cumulative_net)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </TableScroll>
          </Card>
          <Card>
            <H2 className="kosh-card-title">What is due</H2>
            {data.items.length === 0 ? (
              <p className="kosh-muted">Nothing is due.</p>
            ) : (
              <TableScroll label="Forecast items table">
                <HTMLTable striped className="kosh-stack" aria-label="Forecast items">
                  <thead>
                    <tr>
                      <th>Date</th>
                      <th>Description</th>
                      <th className="kosh-num">Money in</th>
                      <th className="kosh-num">Money out</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((item) => (
                      <tr key={`${item.kind}-${item.source_id}-${item.date}-${item.description}`}>
                        <td data-label="Date">{formatDate(item.date)}</td>
                        <td data-label="Description">
                          {item.description}
                          <span className="kosh-muted"> · {item.kind === 'emi' ? 'EMI' : 'Recurring'}</span>
                        </td>
                        <td data-label="Money in" className="kosh-num kosh-credit">
                          {item.inflow ? formatMoney(item.inflow) : '—'}
                        </td>
                        <td data-label="Money out" className="kosh-num kosh-debit">
                          {item.outflow ? formatMoney(item.outflow) : '—'}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </HTMLTable>
              </TableScroll>
            )}
          </Card>
        </>
      )}
    </>
  );
}
