import { Callout, HTMLTable } from '@blueprintjs/core';
import { useState } from 'react';
import { formatDate, formatMoney, todayIso } from '../../format';
import { amountText, InputGroupField, RadioGroupField, toSubmissionErrors } from '../../forms';
import {
  type PrepaymentChoice,
  type PrepaymentComparison,
  useRecordPrepaymentMutation,
  useWhatIfPrepaymentMutation,
} from '../loansApi';
import { amountRule, changeValidator, chargeOf, chargeRule, dateRule } from './changeForm';
import { LoanChangeDialog } from './LoanChangeDialog';
import { RupeesField } from './RupeesField';

type Values = { date: string; amount: string; charge: string; choice: PrepaymentChoice };

const FIELDS = ['date', 'amount', 'charge', 'choice'] as const;
const validate = changeValidator<Values>([dateRule('date'), amountRule('amount'), chargeRule('charge')]);

export const CHOICE_LABELS: Record<PrepaymentChoice, string> = {
  'reduce-emi': 'Reduce EMI (same tenure)',
  'reduce-tenure': 'Reduce tenure (same EMI)',
};

/** The amounts the what-if was asked about: a change to any of them asks again. */
const amountsOf = ({ date, amount, charge }: Values) => ({
  date,
  amount: amountText(amount),
  charge: chargeOf(charge),
});
const keyOf = (values: Values) => JSON.stringify(amountsOf(values));

const months = (n: number) => `${n} ${n === 1 ? 'month' : 'months'}`;

/** Both choices side by side, the chosen one marked. */
export function WhatIfTable({
  comparison,
  choice,
}: {
  comparison: PrepaymentComparison;
  choice: PrepaymentChoice;
}) {
  const { withoutPrepayment: before, reduceEmi, reduceTenure } = comparison;
  const columns = [
    ['Without part-payment', before, null],
    [CHOICE_LABELS['reduce-emi'], reduceEmi, 'reduce-emi'],
    [CHOICE_LABELS['reduce-tenure'], reduceTenure, 'reduce-tenure'],
  ] as const;
  const lines: [string, (c: (typeof columns)[number]) => string][] = [
    ['EMI (before GST)', ([, o]) => formatMoney(o.emi)],
    ['Number of EMIs', ([, o]) => String(o.numberOfEmis)],
    ['Last EMI on', ([, o]) => formatDate(o.closedOn)],
    ['Interest to pay', ([, o]) => formatMoney(o.interest)],
    ['Interest saved', ([, , key]) => (key ? formatMoney(reduceOf(comparison, key).interestSaved) : '—')],
    ['Months saved', ([, , key]) => (key ? months(reduceOf(comparison, key).monthsSaved) : '—')],
  ];
  return (
    <HTMLTable
      compact
      className="kosh-whatif-table"
      aria-label="What-if comparison"
      tabIndex={-1}
      data-focus-after-submit
    >
      <thead>
        <tr>
          <th scope="col">
            <span className="kosh-visually-hidden">Figure</span>
          </th>
          {columns.map(([label, , key]) => (
            <th key={label} scope="col" className={key === choice ? 'kosh-num kosh-chosen' : 'kosh-num'}>
              {label}
              {key === choice ? <span className="kosh-chosen-mark"> · your choice</span> : null}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {lines.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            {columns.map((column) => (
              <td key={column[0]} className={column[2] === choice ? 'kosh-num kosh-chosen' : 'kosh-num'}>
                {value(column)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

const reduceOf = (c: PrepaymentComparison, key: PrepaymentChoice) =>
  key === 'reduce-emi' ? c.reduceEmi : c.reduceTenure;

type Props = {
  loanId: string;
  onClose: () => void;
  /** The latest comparison, for the balance chart behind the dialog. */
  onCompared?: (comparison: PrepaymentComparison) => void;
};

/**
 * 'Part-payment': date, amount, optional charge and the choice; the first submit asks the server's
 * what-if for both choices (nothing saved) and shows them side by side, the second records it.
 */
export function PrepaymentDialog({ loanId, onClose, onCompared }: Props) {
  const [whatIf] = useWhatIfPrepaymentMutation();
  const [record] = useRecordPrepaymentMutation();
  const [compared, setCompared] = useState<{ key: string; comparison: PrepaymentComparison } | null>(null);

  return (
    <LoanChangeDialog<Values>
      title="Part-payment"
      icon="bank-account"
      className="kosh-wide-dialog"
      submitText="Record Part-payment"
      initialValues={{ date: todayIso(), amount: '', charge: '', choice: 'reduce-tenure' }}
      fields={FIELDS}
      validate={validate}
      fallback="Failed to record the part-payment"
      success="Prepayment recorded successfully"
      step={{
        text: 'Compare Choices',
        pending: (values) => compared?.key !== keyOf(values),
        run: async (values) => {
          const result = await whatIf({ id: loanId, body: amountsOf(values) });
          if ('error' in result)
            return toSubmissionErrors(result.error, FIELDS, 'Failed to compare the choices');
          setCompared({ key: keyOf(values), comparison: result.data });
          onCompared?.(result.data);
          return undefined;
        },
      }}
      send={(values, idempotencyKey) =>
        record({ id: loanId, idempotencyKey, body: { ...amountsOf(values), choice: values.choice } })
      }
      onClose={onClose}
    >
      {(values) => (
        <>
          <div className="kosh-change-fields">
            <InputGroupField name="date" label="Date" type="date" autoFocus />
            <RupeesField name="amount" label="Amount (₹)" />
            <RupeesField name="charge" label="Charge (₹, optional)" />
          </div>
          <RadioGroupField
            name="choice"
            label="After the part-payment"
            inline
            options={[
              { value: 'reduce-emi', label: CHOICE_LABELS['reduce-emi'] },
              { value: 'reduce-tenure', label: CHOICE_LABELS['reduce-tenure'] },
            ]}
          />
          {compared && compared.key === keyOf(values) ? (
            <>
              <WhatIfTable comparison={compared.comparison} choice={values.choice} />
              <AccruedNote accrued={compared.comparison.accrued} amount={values.amount} />
            </>
          ) : (
            <Callout icon="info-sign" className="kosh-whatif-hint">
              Compare both choices before recording: nothing is saved until you press Record Part-payment.
            </Callout>
          )}
        </>
      )}
    </LoanChangeDialog>
  );
}

/** Why the part-payment costs more than its amount: the interest accrued on it since the last EMI. */
function AccruedNote({ accrued, amount }: { accrued: PrepaymentComparison['accrued']; amount: string }) {
  const days = `${accrued.days} ${accrued.days === 1 ? 'day' : 'days'}`;
  return (
    <p className="kosh-muted" role="note">
      With the part-payment the lender collects the interest on it since the last EMI:{' '}
      {formatMoney(Number(amount))} × {accrued.annualRate}% × {days} (since {formatDate(accrued.from)}) ÷ 365
      = {formatMoney(accrued.interest)}
      {accrued.gst > 0 ? `, plus ${formatMoney(accrued.gst)} GST on it` : ''}.
    </p>
  );
}
