import { Callout, HTMLTable, Spinner } from '@blueprintjs/core';
import { isIsoDate } from '@kosh/domain';
import { formatDate, formatMoney, todayIso } from '../../format';
import { amountText, InputGroupField } from '../../forms';
import { useForecloseLoanMutation, useGetForeclosureQuoteQuery } from '../loansApi';
import { changeValidator, chargeOf, chargeRule, dateRule, isRupees } from './changeForm';
import { LoanChangeDialog } from './LoanChangeDialog';
import { RupeesField } from './RupeesField';

type Values = { date: string; charge?: string };

const validate = changeValidator<Values>([dateRule('date'), chargeRule('charge')]);

/** 'Foreclose': closes the loan on a date with the outstanding principal, accrued interest and a charge. */
export function ForeclosureDialog({ loanId, onClose }: { loanId: string; onClose: () => void }) {
  const [foreclose] = useForecloseLoanMutation();
  return (
    <LoanChangeDialog<Values>
      title="Foreclose Loan"
      icon="endorsed"
      submitText="Foreclose Loan"
      initialValues={{ date: todayIso(), charge: '' }}
      fields={['date', 'charge']}
      validate={validate}
      fallback="Failed to foreclose the loan"
      success="Loan foreclosed successfully"
      send={(values, idempotencyKey) =>
        foreclose({
          id: loanId,
          idempotencyKey,
          body: { date: values.date, charge: chargeOf(values.charge) },
        })
      }
      onClose={onClose}
    >
      {(values) => (
        <>
          <Callout intent="warning" icon="warning-sign" className="kosh-whatif-hint">
            The loan closes on this date: you pay the outstanding principal, the interest accrued since the
            last EMI and the charge. Later EMIs leave the schedule.
          </Callout>
          <InputGroupField name="date" label="Foreclosure date" type="date" autoFocus />
          <RupeesField name="charge" label="Foreclosure charge (₹, optional)" />
          <ForeclosureQuotePanel loanId={loanId} date={values.date} charge={values.charge} />
        </>
      )}
    </LoanChangeDialog>
  );
}

/** The quote of closing on the date typed, before anything is recorded. */
function ForeclosureQuotePanel({ loanId, date, charge }: { loanId: string; date: string; charge?: string }) {
  // A cleared field is undefined; a pasted '₹ 5,000' is read as the amount it says.
  const ready = isIsoDate(date) && (amountText(charge) === '' || isRupees(charge, true));
  const quote = useGetForeclosureQuoteQuery({ id: loanId, date, charge: chargeOf(charge) }, { skip: !ready });
  if (!ready) return null;
  if (quote.isFetching && !quote.data) return <Spinner size={20} aria-label="Quoting the foreclosure" />;
  if (quote.isError || !quote.data) return null;
  const q = quote.data;
  const lines: [string, string][] = [
    ['Outstanding principal', formatMoney(q.outstandingPrincipal)],
    [
      `Interest since ${formatDate(q.interestFrom)} (${q.days} ${q.days === 1 ? 'day' : 'days'} at ${q.annualRate}%, actual/365)`,
      formatMoney(q.interest),
    ],
    ['GST on the interest', formatMoney(q.gst)],
    ['Foreclosure charge', formatMoney(q.charge)],
    ['Total', formatMoney(q.total)],
    ...q.advanceEmis.map((emi): [string, string] => [
      `EMI ${emi.paymentNumber} (due ${formatDate(emi.dueDate)}) paid in advance, credited`,
      `− ${formatMoney(emi.amount)}`,
    ]),
    ['To pay', formatMoney(q.payable)],
  ];
  return (
    <HTMLTable compact className="kosh-quote-table" aria-label="Foreclosure quote">
      <tbody>
        {lines.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td className="kosh-num">{value}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
