import { Alert, Button, Card, Classes, HTMLTable, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { type MouseEvent, memo, type RefObject, useCallback, useMemo, useRef, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { PageHeader } from '../app/layout/PageHeader';
import { formatDate, formatMoney } from '../format';
import { asOfParams, useAsOfMode, withAsOf } from '../history/asOf';
import { ScheduleVersions } from '../history/ScheduleVersions';
import { toast } from '../toaster';
import { ExportCsvButton } from '../ui/ExportCsvButton';
import { SpacerRow } from '../ui/SpacerRow';
import { StatCard, StatGrid } from '../ui/StatCard';
import { TableScroll } from '../ui/TableScroll';
import { useRowWindow } from '../ui/useRowWindow';
import { MarkPaidDialog } from './changes/MarkPaidDialog';
import { PaidUpToDialog } from './changes/PaidUpToDialog';
import { LoanUnavailable } from './LoanUnavailable';
import { bankLabel, EMI_LABELS } from './loanDisplay';
import {
  type ScheduleRow,
  useGetLoanQuery,
  useGetScheduleQuery,
  useMarkEmiMissedMutation,
  useRegenerateScheduleMutation,
  useUndoMarkMutation,
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
  const [payingUpTo, setPayingUpTo] = useState(false);
  const [undoing, setUndoing] = useState<{ markId: string; text: string } | null>(null);
  const [markMissed] = useMarkEmiMissedMutation();
  const scrollBox = useRef<HTMLElement>(null);
  const [undoMark, undo] = useUndoMarkMutation();
  const onAction = useCallback(
    async (action: RowAction) => {
      const row = rows.find((r) => isEmi(r) && r.paymentNumber === action.paymentNumber);
      if (!row) return;
      if (action.kind === 'undo') {
        setUndoing({ markId: action.markId, text: undoText(rows, row, action.markId) });
      } else if (action.kind === 'pay') setPaying(row);
      else {
        const result = await markMissed({
          id,
          paymentNumber: row.paymentNumber,
          body: {},
          idempotencyKey: crypto.randomUUID(),
        });
        if (!('error' in result)) toast.success(`EMI ${row.paymentNumber} marked missed`);
      }
    },
    [rows, id, markMissed],
  );
  const confirmUndo = async () => {
    if (!undoing) return;
    const result = await undoMark({ id, markId: undoing.markId });
    setUndoing(null);
    if (!('error' in result)) toast.success(result.data.message ?? 'Mark undone');
  };

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
            {rows.length > 0 ? (
              <ExportCsvButton
                url={`/api/loans/${encodeURIComponent(id)}/amortization.csv${asOf ? `?${new URLSearchParams(asOfParams(asOf))}` : ''}`}
                fileName={`loan-${loan.data?.loan.accountNumber ?? id}-schedule.csv`}
                what="the schedule"
              />
            ) : null}
            {rows.length > 0 && !readOnly ? (
              <Button icon="tick-circle" text="Mark Paid Up To…" onClick={() => setPayingUpTo(true)} />
            ) : null}
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
          {payingUpTo ? (
            <PaidUpToDialog loanId={id} rows={rows} onClose={() => setPayingUpTo(false)} />
          ) : null}
          <Alert
            isOpen={undoing !== null}
            intent={Intent.WARNING}
            icon="undo"
            confirmButtonText="Undo"
            cancelButtonText="Cancel"
            loading={undo.isLoading}
            onConfirm={confirmUndo}
            onCancel={() => setUndoing(null)}
          >
            <p>{undoing?.text}</p>
          </Alert>
          <p className="kosh-muted">{EMI_LABELS.scheduleNote}</p>
          <Card className="kosh-schedule-card">
            <TableScroll label="Schedule table" className="kosh-schedule-scroll" scrollRef={scrollBox}>
              <HTMLTable
                compact
                striped
                aria-label="Amortization schedule"
                aria-rowcount={rows.length + 2}
                className="kosh-schedule-table"
              >
                <ScheduleTableHead payment />
                <ScheduleBody rows={rows} onAction={readOnly ? null : onAction} scroller={scrollBox} />
                <tfoot>
                  <tr aria-rowindex={rows.length + 2}>
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

/** What a button of a schedule row asks for. */
type RowAction =
  | { kind: 'pay' | 'missed'; paymentNumber: number }
  | { kind: 'undo'; paymentNumber: number; markId: string };

/** The question before an undo: what the mark covers, and that a matched debit comes back. */
function undoText(rows: readonly ScheduleRow[], row: ScheduleRow, markId: string): string {
  const covered = rows.filter((r) => isEmi(r) && r.markIds.includes(markId));
  if (covered.length > 1)
    return `Undo marking EMIs ${covered[0]?.paymentNumber} to ${covered.at(-1)?.paymentNumber} paid? All ${covered.length} EMIs of that step lose the mark.`;
  if (row.paymentState === 'missed' && markId === row.markIds.at(-1))
    return `Undo the mark on EMI ${row.paymentNumber}? A missed mark taken back lets the EMI count as auto-debited again.`;
  return row.transactionId
    ? `Undo this mark on EMI ${row.paymentNumber}? A matched debit is released and shows again in the ledger.`
    : `Undo this mark on EMI ${row.paymentNumber}?`;
}

const STATE_TEXT = (row: ScheduleRow): { text: string; className: string } | null => {
  switch (row.paymentState) {
    case 'paid':
      return {
        text: `Paid ${row.paidOn ? formatDate(row.paidOn) : ''}${
          row.paidAmount !== null && row.paidAmount !== row.emi ? ` · ${formatMoney(row.paidAmount)}` : ''
        }${row.transactionId ? ' · matched' : ''}`,
        className: 'kosh-paid',
      };
    case 'auto-debited':
      return { text: `Auto-debited ${row.paidOn ? formatDate(row.paidOn) : ''}`, className: 'kosh-auto' };
    case 'partly-paid':
      return {
        text: `Partly paid ${formatMoney(row.paidAmount ?? 0)} · ${formatMoney(row.remainder)} ${row.overdue ? 'overdue' : 'due'}`,
        className: row.overdue ? 'kosh-overdue' : 'kosh-paid',
      };
    case 'missed':
      return { text: `Missed · ${formatMoney(row.remainder)} overdue`, className: 'kosh-overdue' };
    case 'overdue':
      return { text: 'Overdue', className: 'kosh-overdue' };
    default:
      return null;
  }
};

const SMALL_BUTTON = `${Classes.BUTTON} ${Classes.SMALL}`;

/** The schedule's columns (ScheduleTableHead with its Payment column). */
const SCHEDULE_COLUMNS = 8;

type BodyProps = {
  rows: readonly ScheduleRow[];
  /** null: read-only (as-of mode), no buttons. */
  onAction: ((action: RowAction) => void) | null;
  /** The box the schedule scrolls in (its rows render in windows of it). */
  scroller: RefObject<HTMLElement | null>;
};

/**
 * Up to 600 rows of plain cells: no components per cell, rendered in windows of the scroll box
 * (useRowWindow). The row buttons (Mark paid, Missed, Undo) are plain buttons with Blueprint's
 * classes and one click handler on the body.
 */
const ScheduleBody = memo(function ScheduleBody({ rows, onAction, scroller }: BodyProps) {
  const { slots, bodyProps } = useRowWindow(rows.length, { scroller });
  const click = (event: MouseEvent<HTMLTableSectionElement>) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-action]');
    if (!button || !onAction) return;
    const paymentNumber = Number(button.dataset.emi);
    const kind = button.dataset.action;
    if (kind === 'undo') onAction({ kind, paymentNumber, markId: button.dataset.mark ?? '' });
    else if (kind === 'pay' || kind === 'missed') onAction({ kind, paymentNumber });
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the clicks come from real buttons (Enter and Space click them)
    <tbody {...bodyProps} onClick={click}>
      {slots.map((slot) => {
        if (slot.kind === 'spacer')
          return <SpacerRow key={slot.key} height={slot.height} columns={SCHEDULE_COLUMNS} />;
        const row = rows[slot.index] as ScheduleRow;
        return (
          <ScheduleRowView
            key={row.id ?? `${row.paymentNumber}:${slot.index}`}
            row={row}
            index={slot.index}
            actions={onAction !== null}
          />
        );
      })}
    </tbody>
  );
});

/** One row of the schedule; memoised, so scrolling renders only the rows that come into view. */
const ScheduleRowView = memo(function ScheduleRowView({
  row,
  index,
  actions,
}: {
  row: ScheduleRow;
  index: number;
  actions: boolean;
}) {
  const emi = isEmi(row);
  const kind = row.kind && row.kind !== 'emi' ? ROW_KIND_LABELS[row.kind] : null;
  const state = emi ? STATE_TEXT(row) : null;
  const covered = row.paymentState === 'paid' || row.paymentState === 'auto-debited';
  return (
    <tr
      data-row-index={index}
      aria-rowindex={index + 2}
      className={covered ? 'kosh-row-paid' : kind ? 'kosh-row-change' : undefined}
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
      <td className="kosh-payment-cell">
        {!emi ? (
          row.charge ? (
            `Charge ${formatMoney(row.charge)}`
          ) : null
        ) : (
          <>
            {state ? <span className={state.className}>{state.text}</span> : null}
            {actions && row.paymentState !== 'paid' && row.paymentState !== 'auto-debited' ? (
              <button
                type="button"
                className={SMALL_BUTTON}
                data-action="pay"
                data-emi={row.paymentNumber}
                aria-label={`Mark paid, EMI ${row.paymentNumber}`}
              >
                Mark paid
              </button>
            ) : null}
            {actions && row.paymentState === 'auto-debited' ? (
              <button
                type="button"
                className={SMALL_BUTTON}
                data-action="missed"
                data-emi={row.paymentNumber}
                aria-label={`Mark EMI ${row.paymentNumber} missed`}
              >
                Missed
              </button>
            ) : null}
            {actions
              ? row.markIds.map((markId) => (
                  <button
                    key={markId}
                    type="button"
                    className={SMALL_BUTTON}
                    data-action="undo"
                    data-emi={row.paymentNumber}
                    data-mark={markId}
                    aria-label={`Undo a mark on EMI ${row.paymentNumber}`}
                  >
                    Undo
                  </button>
                ))
              : null}
          </>
        )}
      </td>
    </tr>
  );
});
