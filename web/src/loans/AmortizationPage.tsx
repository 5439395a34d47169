import { Button, Card, Classes, HTMLTable, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { type MouseEvent, memo, useCallback, useMemo, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { PageHeader } from '../app/layout/PageHeader';
import { formatDate, formatMoney, todayIso } from '../format';
import { useAsOfMode, withAsOf } from '../history/asOf';
import { ScheduleVersions } from '../history/ScheduleVersions';
import { toast } from '../toaster';
import { StatCard, StatGrid } from '../ui/StatCard';
import { TableScroll } from '../ui/TableScroll';
import { MarkPaidDialog } from './changes/MarkPaidDialog';
import { LoanUnavailable } from './LoanUnavailable';
import { bankLabel, EMI_LABELS } from './loanDisplay';
import {
  type ScheduleRow,
  useGetLoanQuery,
  useGetScheduleQuery,
  useRegenerateScheduleMutation,
} from './loansApi';
import './loan-changes.css';
import { ScheduleTableHead } from './ScheduleTableHead';
import { isEmi, scheduleTotals } from './scheduleTotals';

/** How a row that is not an EMI is named in the schedule. */
const ROW_KIND_LABELS = {
  prepayment: 'Part-payment',
  foreclosure: 'Foreclosure',
  'pre-emi-interest': 'Pre-EMI interest',
} as const;

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
  const [paying, setPaying] = useState<ScheduleRow | null>(null);
  const markPaid = useCallback(
    (paymentNumber: number) =>
      setPaying(rows.find((row) => isEmi(row) && row.paymentNumber === paymentNumber) ?? null),
    [rows],
  );

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
          asOf={asOf}
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
            {totals.otherPayments > 0 ? (
              <StatCard
                label="Part-payments and Foreclosure"
                icon="bank-account"
                value={formatMoney(totals.otherPayments)}
              />
            ) : null}
            <StatCard label="Number of Payments" icon="numbered-list" value={totals.payments} />
            <StatCard
              label="EMIs Paid"
              icon="tick-circle"
              value={`${totals.paidEmis} of ${totals.payments}`}
            />
          </StatGrid>
          {paying ? <MarkPaidDialog loanId={id} row={paying} onClose={() => setPaying(null)} /> : null}
          <p className="kosh-muted">{EMI_LABELS.scheduleNote}</p>
          <Card className="kosh-schedule-card">
            <TableScroll label="Schedule table" className="kosh-schedule-scroll">
              <HTMLTable compact striped aria-label="Amortization schedule" className="kosh-schedule-table">
                <ScheduleTableHead payment />
                <ScheduleBody
                  rows={rows}
                  today={asOf ?? todayIso()}
                  onMarkPaid={readOnly ? null : markPaid}
                />
                <tfoot>
                  <tr>
                    <th colSpan={2}>Total</th>
                    <th className="kosh-num">{formatMoney(totals.principal)}</th>
                    <th className="kosh-num">{formatMoney(totals.interest)}</th>
                    <th className="kosh-num">{formatMoney(totals.gst)}</th>
                    <th className="kosh-num">{formatMoney(totals.paid)}</th>
                    <th className="kosh-num">—</th>
                    <th>
                      {totals.paidEmis} of {totals.payments} EMIs paid
                    </th>
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

type BodyProps = {
  rows: readonly ScheduleRow[];
  today: string;
  /** null: read-only (as-of mode), no Mark paid buttons. */
  onMarkPaid: ((paymentNumber: number) => void) | null;
};

/**
 * Up to 600 rows of plain cells: no components per cell, rendered once per schedule. The 'Mark
 * paid' buttons are plain buttons with Blueprint's classes and one click handler on the body.
 */
const ScheduleBody = memo(function ScheduleBody({ rows, today, onMarkPaid }: BodyProps) {
  // As the server's status: a loan whose EMIs were never marked paid has none overdue.
  const tracked = rows.some((row) => row.paidOn);
  const click = (event: MouseEvent<HTMLTableSectionElement>) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-emi]');
    if (button && onMarkPaid) onMarkPaid(Number(button.dataset.emi));
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the clicks come from real buttons (Enter and Space click them)
    <tbody onClick={click}>
      {rows.map((row, index) => {
        const emi = isEmi(row);
        const kind = row.kind && row.kind !== 'emi' ? ROW_KIND_LABELS[row.kind] : null;
        return (
          <tr
            key={row.id ?? `${row.paymentNumber}:${index}`}
            className={row.paidOn ? 'kosh-row-paid' : kind ? 'kosh-row-change' : undefined}
          >
            <td className="kosh-num">{emi ? row.paymentNumber : ''}</td>
            <td>
              {formatDate(row.emiDate)}
              {kind ? <span className="kosh-row-kind">{kind}</span> : null}
            </td>
            <td className="kosh-num">{formatMoney(row.principal)}</td>
            <td className="kosh-num">{formatMoney(row.interest)}</td>
            <td className="kosh-num">{formatMoney(row.gst)}</td>
            <td className="kosh-num">{formatMoney(row.emi)}</td>
            <td className="kosh-num">{formatMoney(row.remainingPrincipal)}</td>
            <td>
              {!emi ? (
                row.charge ? (
                  `Charge ${formatMoney(row.charge)}`
                ) : null
              ) : row.paidOn ? (
                <span className="kosh-paid">
                  Paid {formatDate(row.paidOn)}
                  {row.paidAmount !== null && row.paidAmount !== undefined && row.paidAmount !== row.emi
                    ? ` · ${formatMoney(row.paidAmount)}`
                    : ''}
                  {row.transactionId ? ' · matched' : ''}
                </span>
              ) : (
                <>
                  {tracked && row.emiDate < today ? <span className="kosh-overdue">Overdue</span> : null}
                  {onMarkPaid ? (
                    <button
                      type="button"
                      className={`${Classes.BUTTON} ${Classes.SMALL}`}
                      data-emi={row.paymentNumber}
                      aria-label={`Mark paid, EMI ${row.paymentNumber}`}
                    >
                      Mark paid
                    </button>
                  ) : null}
                </>
              )}
            </td>
          </tr>
        );
      })}
    </tbody>
  );
});
