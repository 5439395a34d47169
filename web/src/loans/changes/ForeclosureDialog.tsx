import { Callout } from '@blueprintjs/core';
import { todayIso } from '../../format';
import { InputGroupField } from '../../forms';
import { useForecloseLoanMutation } from '../loansApi';
import { changeValidator, chargeOf, chargeRule, dateRule } from './changeForm';
import { LoanChangeDialog } from './LoanChangeDialog';
import { RupeesField } from './RupeesField';

type Values = { date: string; charge: string };

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
      {() => (
        <>
          <Callout intent="warning" icon="warning-sign" className="kosh-whatif-hint">
            The loan closes on this date: you pay the outstanding principal, the interest accrued since the
            last EMI and the charge. Later EMIs leave the schedule.
          </Callout>
          <InputGroupField name="date" label="Foreclosure date" type="date" autoFocus />
          <RupeesField name="charge" label="Foreclosure charge (₹, optional)" />
        </>
      )}
    </LoanChangeDialog>
  );
}
