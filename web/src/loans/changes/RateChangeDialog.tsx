import { LOAN_CHANGE_MESSAGES as M } from '@kosh/domain';
import { todayIso } from '../../format';
import { amountText, InputGroupField, NumberField, RadioGroupField } from '../../forms';
import { type RateChangeOption, useChangeRateMutation } from '../loansApi';
import { changeValidator, dateRule, isRate, isRupees } from './changeForm';
import { LoanChangeDialog } from './LoanChangeDialog';
import { RupeesField } from './RupeesField';

type Values = { date: string; annualRatePercent: string; option: RateChangeOption; newEmi: string };

/**
 * The borrower's options when a floating rate resets (RBI circular of 18 August 2023 on resetting
 * floating-rate EMI loans).
 */
export const RATE_OPTIONS: readonly { value: RateChangeOption; label: string }[] = [
  { value: 'increase-emi', label: 'Increase the EMI (same tenure)' },
  { value: 'extend-tenure', label: 'Extend the tenure (same EMI)' },
  { value: 'combination', label: 'A combination: a new EMI I choose, the tenure follows' },
  { value: 'switch-to-fixed', label: 'Switch to a fixed rate (same tenure)' },
];

const validate = (values: Values): Record<string, string> => {
  const errors = changeValidator<Values>([dateRule('date'), ['annualRatePercent', isRate, M.rateInvalid]])(
    values,
  );
  if (values.option === 'combination' && !isRupees(values.newEmi)) errors.newEmi = M.newEmiRequired;
  return errors;
};

/**
 * 'Rate Change': a new annual rate from a date with one of the RBI's options. The server refuses
 * an EMI that does not cover the interest (negative amortisation); its 422 message shows on the
 * field it names (the option, or the new EMI).
 */
export function RateChangeDialog({ loanId, onClose }: { loanId: string; onClose: () => void }) {
  const [changeRate] = useChangeRateMutation();
  return (
    <LoanChangeDialog<Values>
      title="Rate Change"
      icon="percentage"
      submitText="Change Rate"
      initialValues={{ date: todayIso(), annualRatePercent: '', option: 'increase-emi', newEmi: '' }}
      fields={['date', 'annualRatePercent', 'option', 'newEmi']}
      validate={validate}
      fallback="Failed to change the interest rate"
      success="Interest rate changed successfully"
      send={(values, idempotencyKey) =>
        changeRate({
          id: loanId,
          idempotencyKey,
          body: {
            date: values.date,
            annualRatePercent: amountText(values.annualRatePercent),
            option: values.option,
            ...(values.option === 'combination' && { newEmi: amountText(values.newEmi) }),
          },
        })
      }
      onClose={onClose}
    >
      {(values) => (
        <>
          <div className="kosh-change-fields">
            <InputGroupField
              name="date"
              label="Effective date"
              type="date"
              autoFocus
              helperText="The new rate applies from the next EMI."
            />
            <NumberField name="annualRatePercent" label="New annual rate (%)" placeholder="e.g. 8.5" />
          </div>
          <RadioGroupField name="option" label="Reset option (RBI, August 2023)" options={RATE_OPTIONS} />
          {values.option === 'combination' ? (
            <RupeesField name="newEmi" label="New EMI (₹, before GST)" />
          ) : null}
        </>
      )}
    </LoanChangeDialog>
  );
}
