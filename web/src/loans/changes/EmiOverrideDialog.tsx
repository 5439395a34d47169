import { todayIso } from '../../format';
import { amountText, InputGroupField } from '../../forms';
import { useOverrideEmiMutation } from '../loansApi';
import { changeValidator, dateRule, emiRule } from './changeForm';
import { LoanChangeDialog } from './LoanChangeDialog';
import { RupeesField } from './RupeesField';

type Values = { date: string; emi: string };

const validate = changeValidator<Values>([dateRule('date'), emiRule('emi')]);

/** 'EMI Override': the EMI the lender debits from a date (banks round differently); the tenure follows. */
export function EmiOverrideDialog({ loanId, onClose }: { loanId: string; onClose: () => void }) {
  const [overrideEmi] = useOverrideEmiMutation();
  return (
    <LoanChangeDialog<Values>
      title="EMI Override"
      icon="edit"
      submitText="Save EMI"
      initialValues={{ date: todayIso(), emi: '' }}
      fields={['date', 'emi']}
      validate={validate}
      fallback="Failed to update the EMI"
      success="EMI updated successfully"
      send={(values, idempotencyKey) =>
        overrideEmi({ id: loanId, idempotencyKey, body: { date: values.date, emi: amountText(values.emi) } })
      }
      onClose={onClose}
    >
      {() => (
        <>
          <InputGroupField
            name="date"
            label="From"
            type="date"
            autoFocus
            helperText="The schedule is recomputed around the lender's EMI from this date."
          />
          <RupeesField name="emi" label="EMI the lender debits (₹, before GST)" />
        </>
      )}
    </LoanChangeDialog>
  );
}
