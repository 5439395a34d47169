import { Callout } from '@blueprintjs/core';
import { formatDate, formatMoney, todayIso } from '../../format';
import { amountText, HTMLSelectField, InputGroupField } from '../../forms';
import { NO_FILTERS, useGetTransactionsQuery } from '../../transactions/transactionsApi';
import { type ScheduleRow, useMarkEmiPaidMutation } from '../loansApi';
import { amountRule, changeValidator, dateRule } from './changeForm';
import { LoanChangeDialog } from './LoanChangeDialog';
import { RupeesField } from './RupeesField';

type Values = { paidOn: string; amount: string; transactionId: string };

/** Debits this many days either side of the EMI's date are offered as its match. */
const MATCH_WINDOW_DAYS = 15;

const DAY_MS = 86_400_000;
/** `date` moved by whole days (UTC arithmetic on a business date: no time-zone shift). */
const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const validateManual = changeValidator<Values>([dateRule('paidOn'), amountRule('amount')]);
/** A matched debit brings its own date and amount. */
const validate = (values: Values) => (values.transactionId ? {} : validateManual(values));

type Props = { loanId: string; row: ScheduleRow; onClose: () => void };

/**
 * 'Mark EMI Paid': the date and amount paid, or a debit of the user's transaction book near the
 * EMI's date (then the ledger shows the EMI once, as that debit).
 */
export function MarkPaidDialog({ loanId, row, onClose }: Props) {
  const [markPaid] = useMarkEmiPaidMutation();
  const today = todayIso();
  const debits = useGetTransactionsQuery({
    page: 1,
    filters: {
      ...NO_FILTERS,
      transaction_type: 'D',
      date_from: addDays(row.emiDate, -MATCH_WINDOW_DAYS),
      date_to: addDays(row.emiDate, MATCH_WINDOW_DAYS),
    },
  });
  const options = [
    { value: '', label: debits.isFetching ? 'Loading debits…' : 'None: enter the date and amount' },
    ...(debits.data?.transactions ?? []).map((t) => ({
      value: t.id,
      label: `${formatDate(t.transaction_date)} · ${t.notes} · ${formatMoney(t.amount)}`,
    })),
  ];

  return (
    <LoanChangeDialog<Values>
      title={`Mark EMI ${row.paymentNumber} Paid`}
      icon="tick-circle"
      submitText="Mark Paid"
      initialValues={{
        paidOn: row.emiDate <= today ? row.emiDate : today,
        amount: row.emi.toFixed(2),
        transactionId: '',
      }}
      fields={['paidOn', 'amount', 'transactionId']}
      validate={validate}
      fallback="Failed to mark the EMI paid"
      success="EMI marked paid"
      send={(values, idempotencyKey) =>
        markPaid({
          id: loanId,
          paymentNumber: row.paymentNumber,
          idempotencyKey,
          body: values.transactionId
            ? { transactionId: values.transactionId }
            : { paidOn: values.paidOn, amount: amountText(values.amount) },
        })
      }
      onClose={onClose}
    >
      {(values) => (
        <>
          <p className="kosh-muted">
            EMI {row.paymentNumber} of {formatMoney(row.emi)} due on {formatDate(row.emiDate)}.
          </p>
          <HTMLSelectField
            name="transactionId"
            label="Matched debit (optional)"
            options={options}
            helperText={`Debits of your transaction book within ${MATCH_WINDOW_DAYS} days of the due date.`}
          />
          {values.transactionId ? (
            <Callout icon="link" className="kosh-whatif-hint">
              The EMI takes the debit&apos;s date and amount, and the ledger shows it once.
            </Callout>
          ) : (
            <div className="kosh-change-fields">
              <InputGroupField name="paidOn" label="Paid on" type="date" autoFocus />
              <RupeesField name="amount" label="Amount paid (₹)" />
            </div>
          )}
        </>
      )}
    </LoanChangeDialog>
  );
}
