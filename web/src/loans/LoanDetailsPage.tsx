import { Button, Card, H2, type IconName, Spinner, Tag } from '@blueprintjs/core';
import { fromPaise, LOAN_FIELDS, type LoanDetails, toPaise } from '@kosh/domain';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { PageHeader } from '../app/layout/PageHeader';
import '../ui/money-screens.css';
import './loan-changes.css';
import { formatDate, formatDateTime, formatMoney, todayIso } from '../format';
import { useAsOfMode, withAsOf } from '../history/asOf';
import { HistoryDrawer } from '../history/HistoryDrawer';
import '../history/history.css';
import { toast } from '../toaster';
import { EmiOverrideDialog } from './changes/EmiOverrideDialog';
import { ForeclosureDialog } from './changes/ForeclosureDialog';
import { PrepaymentDialog } from './changes/PrepaymentDialog';
import { RateChangeDialog } from './changes/RateChangeDialog';
import { LoanUnavailable } from './LoanUnavailable';
import {
  bankLabel,
  closingLabel,
  currentRateLabel,
  durationLabel,
  EMI_LABELS,
  STATUS_INTENT,
  statusOf,
} from './loanDisplay';
import {
  type Loan,
  type PrepaymentComparison,
  useGetLoanQuery,
  useGetScheduleQuery,
  useRegenerateScheduleMutation,
} from './loansApi';
import { isEmi, scheduleTotals } from './scheduleTotals';

const LoanBalanceChart = lazy(async () => ({
  default: (await import('./LoanBalanceChart')).LoanBalanceChart,
}));

/** The change dialogs of the details screen; one is open at a time. */
const CHANGE_DIALOGS = {
  prepayment: PrepaymentDialog,
  'rate-change': RateChangeDialog,
  'emi-override': EmiOverrideDialog,
  foreclosure: ForeclosureDialog,
} as const;
type ChangeDialog = keyof typeof CHANGE_DIALOGS;
const CHANGE_BUTTONS: readonly (readonly [ChangeDialog, string, IconName])[] = [
  ['prepayment', 'Part-payment', 'bank-account'],
  ['rate-change', 'Rate Change', 'percentage'],
  ['emi-override', 'EMI Override', 'edit'],
  ['foreclosure', 'Foreclose', 'endorsed'],
];

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="kosh-details">
      {rows.map(([label, value]) => (
        <div key={label} className="kosh-fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** /loans/{id}, 'Loan Details' (spec section 2). */
/**
 * Where this screen shows each declared loan field (`LOAN_FIELDS`): `'card'` for a row a card
 * lays out itself, or the value a row of Basic Information shows under the field's label. A
 * field added to the table does not compile until it is placed here.
 */
const DETAIL_ROWS: Record<keyof LoanDetails, 'card' | ((loan: Loan) => ReactNode)> = {
  bankId: 'card',
  loanTypeId: 'card',
  accountNumber: 'card',
  shortDetail: 'card',
  principalAmount: 'card',
  processingFee: 'card',
  interestRate: 'card',
  isInterestRateYearly: 'card',
  duration: 'card',
  isDurationYearly: 'card',
  startDate: 'card',
  endDate: 'card',
  hasGst: 'card',
  gstPercentage: 'card',
  emisAutoDebited: 'card',
  processingFeeGst: 'card',
};

/** The Basic Information rows of the fields no card lays out, labelled as History labels them. */
function fieldRows(loan: Loan): [string, ReactNode][] {
  return (Object.keys(DETAIL_ROWS) as (keyof LoanDetails)[]).flatMap((key) => {
    const show = DETAIL_ROWS[key];
    return show === 'card' ? [] : [[LOAN_FIELDS[key].label, show(loan)] as [string, ReactNode]];
  });
}

export function LoanDetailsPage() {
  const { id = '' } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const asOfMode = useAsOfMode('this loan');
  const { asOf, readOnly } = asOfMode;
  const [showHistory, setShowHistory] = useState(false);
  const answer = useGetLoanQuery(asOf ? { id, asOf } : id);
  const schedule = useGetScheduleQuery(asOf ? { id, asOf } : id);
  const [regenerate, regeneration] = useRegenerateScheduleMutation();
  const [dialog, setDialog] = useState<ChangeDialog | null>(null);
  // A compared, unrecorded part-payment stays on the chart until cleared; a new schedule (the
  // part-payment or any other change recorded) replaces it.
  const [compared, setCompared] = useState<{ comparison: PrepaymentComparison; against: unknown } | null>(
    null,
  );
  const whatIf = compared && compared.against === schedule.currentData ? compared.comparison : null;

  // The answer for this very id and date (`data` would still hold the last one shown: today's
  // loan under a past date's banner while that date's answer is a 404).
  const current = answer.currentData;
  if (!current && !answer.isError) return <Spinner aria-label="Loading loan" />;
  if (!current)
    return (
      <>
        {asOfMode.banner}
        <LoanUnavailable
          title="Loan Details"
          error={answer.error}
          fallback="Failed to load loan details"
          asOf={asOf}
        />
      </>
    );
  const loan = current.loan;
  const hasSchedule = (schedule.currentData?.length ?? 0) > 0;
  const totals = scheduleTotals(schedule.currentData ?? []);
  const first = schedule.currentData?.find(isEmi);
  const today = asOf ?? todayIso();
  const status = statusOf(loan, today);
  // The server's present: the rate, EMI and balance on today's date after every change.
  const now = loan.current;
  const aprNow = loan.actualApr !== undefined && loan.actualApr !== loan.apr ? loan.actualApr : null;
  // A completed (repaid or foreclosed) loan takes no more changes; the server says why if tried.
  const changeable = hasSchedule && status !== 'Completed';
  const OpenDialog = dialog ? CHANGE_DIALOGS[dialog] : null;

  const generate = async () => {
    const result = await regenerate({ id });
    if ('error' in result) return;
    toast.success('Amortization schedule generated successfully');
    navigate(`/loans/${id}/amortization`);
  };

  return (
    <>
      <PageHeader
        title="Loan Details"
        subtitle={`${loan.accountNumber} · ${bankLabel(loan.bank)}`}
        actions={
          <div className="kosh-header-buttons">
            {asOfMode.control}
            <Button icon="history" text="History" onClick={() => setShowHistory(true)} />
            {readOnly ? null : (
              <>
                <Button icon="edit" text="Edit Loan" onClick={() => navigate(`/loans/${id}/edit`)} />
                <Button
                  icon="refresh"
                  text={hasSchedule ? 'Regenerate Schedule' : 'Generate Schedule'}
                  loading={regeneration.isLoading}
                  onClick={generate}
                />
              </>
            )}
            <Button
              intent="primary"
              icon="th"
              text="View Schedule"
              onClick={() => navigate(withAsOf(`/loans/${id}/amortization`, asOf))}
            />
          </div>
        }
      />
      {asOfMode.banner}
      {showHistory ? (
        <HistoryDrawer
          kind="loans"
          id={id}
          title={`History of loan ${loan.accountNumber}`}
          onClose={() => setShowHistory(false)}
        />
      ) : null}
      {readOnly ? null : (
        <div className="kosh-change-actions" role="toolbar" aria-label="Loan changes">
          {CHANGE_BUTTONS.map(([dialogName, text, icon]) => (
            <Button
              key={dialogName}
              icon={icon}
              text={text}
              intent={dialogName === 'foreclosure' ? 'warning' : 'none'}
              disabled={!changeable}
              onClick={() => setDialog(dialogName)}
            />
          ))}
          <Button
            icon="document"
            text="Interest Certificate"
            onClick={() => navigate(`/loans/${id}/certificate`)}
          />
        </div>
      )}
      {dialog === 'prepayment' ? (
        <PrepaymentDialog
          loanId={id}
          onClose={() => setDialog(null)}
          onCompared={(comparison) => setCompared({ comparison, against: schedule.currentData })}
        />
      ) : OpenDialog ? (
        <OpenDialog loanId={id} onClose={() => setDialog(null)} />
      ) : null}
      <div className="kosh-details-grid">
        <Card>
          <H2 className="kosh-section-title">Basic Information</H2>
          <Facts
            rows={[
              ['Account Number', loan.accountNumber],
              ['Bank', bankLabel(loan.bank)],
              ['Loan Type', loan.loanType?.typeName ?? '—'],
              ['Description', loan.shortDetail || '—'],
              ...fieldRows(loan),
              [
                'Status',
                <Tag key="status" round intent={STATUS_INTENT[status]}>
                  {status}
                </Tag>,
              ],
            ]}
          />
        </Card>
        <Card>
          <H2 className="kosh-section-title">Financial Details</H2>
          <Facts
            rows={[
              ['Principal Amount', formatMoney(Number(loan.principalAmount))],
              ['Interest Rate', currentRateLabel(loan)],
              ['Processing Fee', formatMoney(Number(loan.processingFee ?? 0))],
              [
                'GST on the processing fee',
                loan.processingFeeHasGst ? '18% charged on top of the fee' : 'Not charged',
              ],
              [
                loan.processingFeeHasGst ? 'APR (with fee and GST)' : 'APR (with fee)',
                loan.apr === undefined ? '—' : `${loan.apr.toFixed(2)}% per year`,
              ],
              ...(aprNow === null
                ? []
                : ([['APR on the actual payments', `${aprNow.toFixed(2)}% per year`]] as [
                    string,
                    ReactNode,
                  ][])),
              ['GST', Number(loan.hasGst) ? `${Number(loan.gstPercentage)}% on interest` : 'Not applicable'],
              [
                'EMI payments',
                loan.emisAutoDebited
                  ? 'Auto-debited: past EMIs count as paid on their due dates'
                  : 'Marked paid by hand: past EMIs not marked are overdue',
              ],
            ]}
          />
        </Card>
        <Card>
          <H2 className="kosh-section-title">Date Information</H2>
          <Facts
            rows={[
              ['Start Date', formatDate(loan.startDate)],
              ['End Date', formatDate(loan.endDate)],
              ['Duration', durationLabel(loan)],
              ['Created', formatDateTime(loan.createdAt)],
              ['Last Updated', formatDateTime(loan.updatedAt)],
            ]}
          />
        </Card>
        <Card>
          <H2 className="kosh-section-title">Loan Summary</H2>
          <Facts
            rows={[
              [
                EMI_LABELS.emi,
                first ? formatMoney(fromPaise(toPaise(first.principal) + toPaise(first.interest))) : '—',
              ],
              ...(now?.emi == null
                ? []
                : ([['EMI now (principal + interest)', formatMoney(now.emi)]] as [string, ReactNode][])),
              ...(now?.nextEmiDate && now.nextEmiTotal != null
                ? ([
                    [
                      'Next EMI (with GST)',
                      `${formatMoney(now.nextEmiTotal)} on ${formatDate(now.nextEmiDate)}`,
                    ],
                  ] as [string, ReactNode][])
                : []),
              [EMI_LABELS.gst, first ? formatMoney(first.gst) : '—'],
              [EMI_LABELS.outflow, first ? formatMoney(first.emi) : '—'],
              ['Total Interest', formatMoney(totals.interest)],
              ['Total GST', formatMoney(totals.gst)],
              ['Total Amount', formatMoney(totals.paid)],
              ['Number of EMIs', totals.payments],
              ...(totals.otherPayments > 0
                ? ([['Part-payments and Foreclosure', formatMoney(totals.otherPayments)]] as [
                    string,
                    ReactNode,
                  ][])
                : []),
              ...(now ? ([['EMIs Left', now.emisLeft]] as [string, ReactNode][]) : []),
              ['Ends', closingLabel(loan)],
              [
                'Remaining Balance',
                now ? formatMoney(now.outstandingPrincipal) : formatMoney(Number(loan.principalAmount)),
              ],
            ]}
          />
        </Card>
      </div>
      {hasSchedule ? (
        <Suspense fallback={<Spinner aria-label="Loading chart" />}>
          <LoanBalanceChart
            loan={loan}
            rows={schedule.currentData ?? []}
            whatIf={readOnly ? null : whatIf}
            onClearWhatIf={() => setCompared(null)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
