import { todayIso } from '../../format';
import { amountText, InputGroupField } from '../../forms';
import { useCompleteConstructionMutation, useRecordPreEmiInterestMutation } from '../loansApi';
import { amountRule, changeValidator, dateRule } from './changeForm';
import { LoanChangeDialog } from './LoanChangeDialog';
import { RupeesField } from './RupeesField';

type Close = { loanId: string; onClose: () => void };

const validatePayment = changeValidator<{ date: string; amount: string }>([
  dateRule('date'),
  amountRule('amount'),
]);

/** 'Record Pre-EMI Interest': interest paid while the house was being built, before the EMIs. */
export function PreEmiInterestDialog({ loanId, onClose }: Close) {
  const [record] = useRecordPreEmiInterestMutation();
  return (
    <LoanChangeDialog<{ date: string; amount: string }>
      title="Record Pre-EMI Interest"
      icon="home"
      submitText="Record"
      initialValues={{ date: todayIso(), amount: '' }}
      fields={['date', 'amount']}
      validate={validatePayment}
      fallback="Failed to record the pre-EMI interest"
      success="Pre-EMI interest recorded"
      send={(values, idempotencyKey) =>
        record({ id: loanId, idempotencyKey, body: { date: values.date, amount: amountText(values.amount) } })
      }
      onClose={onClose}
    >
      {() => (
        <>
          <p className="kosh-muted">
            Interest paid on the amount disbursed before construction was completed. It is deductible in five
            equal parts, from the financial year the construction is completed.
          </p>
          <div className="kosh-change-fields">
            <InputGroupField name="date" label="Paid on" type="date" autoFocus />
            <RupeesField name="amount" label="Pre-EMI interest paid (₹)" />
          </div>
        </>
      )}
    </LoanChangeDialog>
  );
}

const validateCompletion = changeValidator<{ date: string }>([dateRule('date')]);

/** 'Construction Completed': the date that starts the five years of pre-EMI interest deductions. */
export function ConstructionCompletedDialog({ loanId, onClose }: Close) {
  const [complete] = useCompleteConstructionMutation();
  return (
    <LoanChangeDialog<{ date: string }>
      title="Construction Completed"
      icon="office"
      submitText="Save Date"
      initialValues={{ date: todayIso() }}
      fields={['date']}
      validate={validateCompletion}
      fallback="Failed to record the completion of construction"
      success="Construction completion recorded"
      send={(values) => complete({ id: loanId, date: values.date })}
      onClose={onClose}
    >
      {() => <InputGroupField name="date" label="Construction completed on" type="date" autoFocus />}
    </LoanChangeDialog>
  );
}
