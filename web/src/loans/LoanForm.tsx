import { Button, Callout, Card, FormGroup, H2, InputGroup } from '@blueprintjs/core';
import type { LoanValidationMode } from '@kosh/domain';
import type { SubmissionErrors } from 'final-form';
import { type FocusEvent, Fragment, type ReactNode, useMemo } from 'react';
import { Form, FormSpy } from 'react-final-form';
import { useLocation } from 'wouter';
import '../ui/money-screens.css';
import { formatDate, todayIso } from '../format';
import {
  FormErrorCallout,
  HTMLSelectField,
  InputGroupField,
  NumberField,
  RadioGroupField,
  SwitchField,
  TextAreaField,
} from '../forms';
import { LoanPreview } from './LoanPreview';
import { bankLabel } from './loanDisplay';
import { endDateOf, type LoanFormValues, loanFormValidator } from './loanFormValues';
import { useGetBanksQuery, useGetLoanTypesQuery } from './loansApi';

/**
 * Where the form takes each of its values: `'laid-out'` for an input the form places itself, or
 * the input shown at the end of Basic Information. A value added to `LoanFormValues` does not
 * compile until it is placed here.
 */
const INPUTS: Record<keyof LoanFormValues, 'laid-out' | ReactNode> = {
  bankId: 'laid-out',
  loanTypeId: 'laid-out',
  accountNumber: 'laid-out',
  shortDetail: 'laid-out',
  principalAmount: 'laid-out',
  interestRate: 'laid-out',
  isInterestRateYearly: 'laid-out',
  duration: 'laid-out',
  isDurationYearly: 'laid-out',
  startDate: 'laid-out',
  processingFee: 'laid-out',
  hasGst: 'laid-out',
  gstPercentage: 'laid-out',
  emisAutoDebited: 'laid-out',
  processingFeeGst: 'laid-out',
};

const fieldInputs = Object.entries(INPUTS).flatMap(([name, input]) =>
  input === 'laid-out' ? [] : [<Fragment key={name}>{input}</Fragment>],
);

type Props = {
  mode: LoanValidationMode;
  initialValues: LoanFormValues;
  submitText: string;
  onSubmit: (values: LoanFormValues) => Promise<SubmissionErrors | undefined>;
};

const YEARLY_OPTIONS = [
  { value: '1', label: 'Per year' },
  { value: '0', label: 'Per month' },
] as const;
const DURATION_OPTIONS = [
  { value: '1', label: 'Years' },
  { value: '0', label: 'Months' },
] as const;

/**
 * On a phone the preview sticks to the bottom of the screen (money-screens.css): a field focused
 * behind it is scrolled up to sit just above it. After a frame, so the browser's own scroll into
 * view (which does not know about the sticky preview) has happened first.
 */
function keepFocusAbovePreview(event: FocusEvent<HTMLElement>): void {
  const field = event.target;
  const preview = event.currentTarget.querySelector('.kosh-loan-preview');
  if (!preview || preview.contains(field)) return;
  requestAnimationFrame(() => {
    if (getComputedStyle(preview).bottom !== '0px') return; // beside the form: nothing to avoid
    const hidden = field.getBoundingClientRect().bottom + 12 - preview.getBoundingClientRect().top;
    if (hidden > 0) window.scrollBy({ top: hidden });
  });
}

/** The create and edit form in its four sections, with the live preview beside it. */
export function LoanForm({ mode, initialValues, submitText, onSubmit }: Props) {
  const [, navigate] = useLocation();
  const banks = useGetBanksQuery(undefined);
  const loanTypes = useGetLoanTypesQuery();
  const validate = useMemo(() => loanFormValidator(mode, () => todayIso()), [mode]);

  return (
    <Form<LoanFormValues>
      onSubmit={onSubmit}
      validate={validate}
      initialValues={initialValues}
      render={({ handleSubmit, submitting }) => (
        <form
          onSubmit={handleSubmit}
          onFocus={keepFocusAbovePreview}
          noValidate
          className="kosh-loan-form-layout"
        >
          <div className="kosh-loan-form">
            <FormErrorCallout />
            <Card className="kosh-panel">
              <H2 className="kosh-section-title">Basic Information</H2>
              {banks.data && banks.data.length === 0 ? (
                <Callout intent="warning" className="kosh-panel">
                  No banks are available. Bank selection is still required: add a bank first.
                </Callout>
              ) : null}
              {loanTypes.data && loanTypes.data.length === 0 ? (
                <Callout intent="warning" className="kosh-panel">
                  No loan types are available. Loan type selection is still required: add a loan type first.
                </Callout>
              ) : null}
              <div className="kosh-form-grid">
                <HTMLSelectField
                  name="bankId"
                  label="Bank"
                  options={[
                    { value: '', label: banks.isLoading ? 'Loading banks...' : 'Select a bank' },
                    ...(banks.data ?? []).map((bank) => ({ value: String(bank.id), label: bankLabel(bank) })),
                  ]}
                />
                <HTMLSelectField
                  name="loanTypeId"
                  label="Loan Type"
                  options={[
                    {
                      value: '',
                      label: loanTypes.isLoading ? 'Loading loan types...' : 'Select a loan type',
                    },
                    ...(loanTypes.data ?? []).map((type) => ({
                      value: String(type.id),
                      label: type.typeName,
                    })),
                  ]}
                />
                <InputGroupField name="accountNumber" label="Account Number" placeholder="e.g. HDFC0012345" />
              </div>
              <TextAreaField name="shortDetail" label="Short Description (optional)" rows={2} />
              {fieldInputs}
            </Card>
            <Card className="kosh-panel">
              <H2 className="kosh-section-title">Financial Details</H2>
              <div className="kosh-form-grid">
                <NumberField name="principalAmount" label="Principal Amount (₹)" placeholder="e.g. 500000" />
                <NumberField name="processingFee" label="Processing Fee (₹)" />
                <NumberField name="interestRate" label="Interest Rate (%)" placeholder="e.g. 8.5" />
                <RadioGroupField
                  name="isInterestRateYearly"
                  label="Interest rate is"
                  options={YEARLY_OPTIONS}
                  inline
                />
                <FormSpy<LoanFormValues> subscription={{ values: true }}>
                  {({ values }) => (
                    <NumberField
                      name="duration"
                      label={values.isDurationYearly === '1' ? 'Duration (years)' : 'Duration (months)'}
                    />
                  )}
                </FormSpy>
                <RadioGroupField
                  name="isDurationYearly"
                  label="Duration in"
                  options={DURATION_OPTIONS}
                  inline
                />
              </div>
            </Card>
            <Card className="kosh-panel">
              <H2 className="kosh-section-title">Date Details</H2>
              <div className="kosh-form-grid">
                <InputGroupField name="startDate" label="Start Date" type="date" min="2000-01-01" />
                <FormSpy<LoanFormValues> subscription={{ values: true }}>
                  {({ values }) => {
                    const end = endDateOf(values);
                    return (
                      <FormGroup label="End Date (computed)" labelFor="loan-end-date">
                        <InputGroup
                          id="loan-end-date"
                          readOnly
                          value={end ? formatDate(end) : ''}
                          placeholder="Start date plus duration"
                        />
                      </FormGroup>
                    );
                  }}
                </FormSpy>
              </div>
            </Card>
            <Card className="kosh-panel">
              <H2 className="kosh-section-title">Additional Options</H2>
              <SwitchField name="emisAutoDebited" label="EMIs are auto-debited from my bank account" />
              <SwitchField
                name="processingFeeGst"
                label="GST (18%) is charged on top of the processing fee"
              />
              <SwitchField name="hasGst" label="GST applies to the interest" />
              <FormSpy<LoanFormValues> subscription={{ values: true }}>
                {({ values }) =>
                  values.hasGst ? <NumberField name="gstPercentage" label="GST Percentage (%)" /> : null
                }
              </FormSpy>
            </Card>
            <div className="kosh-form-buttons">
              <Button text="Cancel" onClick={() => navigate('/loans')} disabled={submitting} />
              <Button type="submit" intent="primary" text={submitText} loading={submitting} />
            </div>
          </div>
          <aside className="kosh-loan-preview">
            <LoanPreview />
          </aside>
        </form>
      )}
    />
  );
}
