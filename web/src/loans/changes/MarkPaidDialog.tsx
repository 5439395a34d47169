import { Callout } from '@blueprintjs/core';
import { LOAN_CHANGE_MESSAGES } from '@kosh/domain';
import { formatDate, formatMoney, todayIso } from '../../format';
import { amountText, CheckboxField, HTMLSelectField, InputGroupField } from '../../forms';
import { NO_FILTERS, useGetTransactionsQuery } from '../../transactions/transactionsApi';
import { type ScheduleRow, useMarkEmiPaidMutation } from '../loansApi';
import { amountRule, changeValidator, dateRule } from './changeForm';
import { LoanChangeDialog } from './LoanChangeDialog';
import { RupeesField } from './RupeesField';

type Values = { paidOn: string; amount: string; transactionId: string; confirm: boolean };

/** Debits this many days either side of the EMI's date are offered as its match. */
const MATCH_WINDOW_DAYS = 15;

const DAY_MS = 86_400_000;
/** `date` moved by whole days (UTC arithmetic on a business date: no time-zone shift). */
const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const validateManual = changeValidator<Values>([dateRule('paidOn'), amountRule('amount')]);

/** The server's question when a debit's amount is not the EMI's (domain LOAN_CHANGE_MESSAGES). */
const differs = (row: ScheduleRow, debit: number) =>
  LOAN_CHANGE_MESSAGES.matchAmountDiffers(row.paymentNumber, formatMoney(debit), formatMoney(row.emi));

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
  const amountOf = (transactionId: string) =>
    debits.data?.transactions.find((t) => t.id === transactionId)?.amount;
  // A matched debit brings its own date and amount; one of another amount needs a yes.
  const validate = (values: Values): Record<string, string> => {
    if (!values.transactionId) return validateManual(values);
    const amount = amountOf(values.transactionId);
    return amount !== undefined && amount !== row.emi && !values.confirm
      ? { confirm: differs(row, amount) }
      : {};
  };
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
        // What is left of a partly paid EMI, else the whole EMI.
        amount: (row.remainder > 0 && row.remainder < row.emi ? row.remainder : row.emi).toFixed(2),
        transactionId: '',
        confirm: false,
      }}
      fields={['paidOn', 'amount', 'transactionId', 'confirm']}
      validate={validate}
      fallback="Failed to mark the EMI paid"
      success="EMI marked paid"
      send={(values, idempotencyKey) =>
        markPaid({
          id: loanId,
          paymentNumber: row.paymentNumber,
          idempotencyKey,
          body: values.transactionId
            ? { transactionId: values.transactionId, confirm: values.confirm }
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
            <>
              <Callout icon="link" className="kosh-whatif-hint">
                The EMI takes the debit&apos;s date and amount, and the ledger shows it once.
              </Callout>
              {(() => {
                const amount = amountOf(values.transactionId);
                return amount !== undefined && amount !== row.emi ? (
                  <Callout intent="warning" icon="warning-sign" className="kosh-whatif-hint" role="alert">
                    <p>{differs(row, amount)}</p>
                    <p>
                      {amount < row.emi
                        ? `The EMI stays partly paid: ${formatMoney(row.emi - amount)} remains due.`
                        : 'The EMI counts as paid.'}
                    </p>
                    <CheckboxField name="confirm" label="Match this debit anyway" />
                  </Callout>
                ) : null;
              })()}
            </>
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
