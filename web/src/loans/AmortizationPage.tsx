import { Button, Card, HTMLTable, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { memo, useMemo } from 'react';
import { useLocation, useParams } from 'wouter';
import { PageHeader } from '../app/layout/PageHeader';
import { StatCard, StatGrid } from '../dashboard/StatCard';
import { TableScroll } from '../dashboard/TableScroll';
import { formatDate, formatMoney } from '../format';
import { useAsOfMode, withAsOf } from '../history/asOf';
import { ScheduleVersions } from '../history/ScheduleVersions';
import { toast } from '../toaster';
import { LoanUnavailable } from './LoanUnavailable';
import { bankLabel, EMI_LABELS } from './loanDisplay';
import {
  type ScheduleRow,
  useGetLoanQuery,
  useGetScheduleQuery,
  useRegenerateScheduleMutation,
} from './loansApi';
import { ScheduleTableHead } from './ScheduleTableHead';
import { scheduleTotals } from './scheduleTotals';

/** /loans/{id}/amortization, 'Amortization Schedule' (spec section 2). */
export function AmortizationPage() {
  const { id = '' } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const asOfMode = useAsOfMode('the schedule');
  const { asOf, readOnly } = asOfMode;
  const loan = useGetLoanQuery(asOf ? { id, asOf } : id);
  const schedule = useGetScheduleQuery(asOf ? { id, asOf } : id);
  const [regenerate, regeneration] = useRegenerateScheduleMutation();
  const rows = schedule.data ?? [];
  const totals = useMemo(() => scheduleTotals(rows), [rows]);

  const generate = async () => {
    const result = await regenerate({ id });
    if (!('error' in result)) toast.success('Amortization schedule generated successfully');
  };

  if (loan.isError)
    return (
      <>
        {asOfMode.banner}
        <LoanUnavailable
          title="Amortization Schedule"
          error={loan.error}
          fallback="Failed to load loan details"
        />
      </>
    );

  const subtitle = loan.data
    ? `${loan.data.loan.accountNumber} · ${bankLabel(loan.data.loan.bank)}`
    : undefined;
  return (
    <>
      <PageHeader
        title="Amortization Schedule"
        subtitle={subtitle}
        actions={
          <div className="kosh-header-buttons">
            {asOfMode.control}
            <Button
              icon="arrow-left"
              text="Loan Details"
              onClick={() => navigate(withAsOf(`/loans/${id}`, asOf))}
            />
            {readOnly ? null : (
              <Button icon="edit" text="Edit Loan" onClick={() => navigate(`/loans/${id}/edit`)} />
            )}
            {rows.length > 0 && !readOnly ? (
              <Button
                intent="primary"
                icon="refresh"
                text="Regenerate Schedule"
                loading={regeneration.isLoading}
                onClick={generate}
              />
            ) : null}
          </div>
        }
      />
      {asOfMode.banner}
      {schedule.isLoading ? (
        <div className="kosh-page-loading" role="status">
          <Spinner aria-hidden />
          <span>Loading amortization schedule...</span>
        </div>
      ) : rows.length === 0 ? (
        <NonIdealState
          icon="th"
          title={schedule.isError ? 'Failed to load amortization schedule' : 'No schedule yet'}
          description="Generate the EMI schedule of this loan."
          action={
            readOnly ? undefined : (
              <Button
                intent="primary"
                icon="refresh"
                text="Generate Schedule"
                loading={regeneration.isLoading}
                onClick={generate}
              />
            )
          }
        />
      ) : (
        <>
          <StatGrid>
            <StatCard label="Principal" icon="bank-account" value={formatMoney(totals.principal)} />
            <StatCard
              label="Interest"
              icon="percentage"
              intent={Intent.WARNING}
              value={formatMoney(totals.interest)}
            />
            <StatCard label="GST" icon="office" value={formatMoney(totals.gst)} />
            <StatCard label="Total EMI" icon="calendar" value={formatMoney(totals.emi)} />
            <StatCard label="Number of Payments" icon="numbered-list" value={totals.payments} />
          </StatGrid>
          <p className="kosh-muted">{EMI_LABELS.scheduleNote}</p>
          <Card className="kosh-schedule-card">
            <TableScroll label="Schedule table" className="kosh-schedule-scroll">
              <HTMLTable compact striped aria-label="Amortization schedule" className="kosh-schedule-table">
                <ScheduleTableHead />
                <ScheduleBody rows={rows} />
                <tfoot>
                  <tr>
                    <th colSpan={2}>Total</th>
                    <th className="kosh-num">{formatMoney(totals.principal)}</th>
                    <th className="kosh-num">{formatMoney(totals.interest)}</th>
                    <th className="kosh-num">{formatMoney(totals.gst)}</th>
                    <th className="kosh-num">{formatMoney(totals.emi)}</th>
                    <th className="kosh-num">—</th>
                  </tr>
                </tfoot>
              </HTMLTable>
            </TableScroll>
          </Card>
        </>
      )}
      {loan.data ? <ScheduleVersions loanId={id} /> : null}
    </>
  );
}

/** Up to 600 rows of plain cells: no components per cell, rendered once per schedule. */
const ScheduleBody = memo(function ScheduleBody({ rows }: { rows: readonly ScheduleRow[] }) {
  return (
    <tbody>
      {rows.map((row) => (
        <tr key={row.paymentNumber}>
          <td className="kosh-num">{row.paymentNumber}</td>
          <td>{formatDate(row.emiDate)}</td>
          <td className="kosh-num">{formatMoney(row.principal)}</td>
          <td className="kosh-num">{formatMoney(row.interest)}</td>
          <td className="kosh-num">{formatMoney(row.gst)}</td>
          <td className="kosh-num">{formatMoney(row.emi)}</td>
          <td className="kosh-num">{formatMoney(row.remainingPrincipal)}</td>
        </tr>
      ))}
    </tbody>
  );
});
