import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import type { SubmissionErrors } from 'final-form';
import { Form } from 'react-final-form';
import { useGetAccountsQuery } from '../accounts/accountsApi';
import { useReturnFocus } from '../app/useReturnFocus';
import { categoryOptions, useGetCategoriesQuery } from '../categories/categoriesApi';
import { todayIso } from '../format';
import {
  FormErrorCallout,
  HTMLSelectField,
  InputGroupField,
  NumberField,
  RadioGroupField,
  toWireSubmissionErrors,
} from '../forms';
import { useSubmissionKey } from '../forms/useSubmissionKey';
import { toast } from '../toaster';
import { type Recurring, useCreateRecurringMutation, useUpdateRecurringMutation } from './recurringApi';
import {
  DAY_OPTIONS,
  FREQUENCY_OPTIONS,
  RECURRING_FORM_FIELDS,
  type RecurringValues,
  recurringBodyOf,
  recurringInitialValues,
  validateRecurringForm,
} from './recurringForm';

type Props = { editing: Recurring | null; onClose: () => void };

/** 'Add Recurring Entry' / 'Edit Recurring Entry'. */
export function RecurringDialog({ editing, onClose }: Props) {
  useReturnFocus();
  const [create] = useCreateRecurringMutation();
  const [update] = useUpdateRecurringMutation();
  const categories = useGetCategoriesQuery();
  const accounts = useGetAccountsQuery(undefined);
  const submission = useSubmissionKey();

  const save = async (values: RecurringValues): Promise<SubmissionErrors | undefined> => {
    const body = recurringBodyOf(values);
    const result = editing
      ? await update({ id: editing.id, body })
      : await create({ body, idempotencyKey: submission.keyFor(body) });
    if ('error' in result) {
      const fallback = editing ? 'Failed to update recurring entry' : 'Failed to create recurring entry';
      return toWireSubmissionErrors(result.error, RECURRING_FORM_FIELDS, fallback);
    }
    submission.succeeded();
    toast.success(
      editing ? 'Recurring entry updated successfully!' : 'Recurring entry created successfully!',
    );
    onClose();
    return undefined;
  };

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={editing ? 'Edit Recurring Entry' : 'Add Recurring Entry'}
      icon="repeat"
    >
      <Form<RecurringValues>
        onSubmit={save}
        validate={validateRecurringForm}
        initialValues={recurringInitialValues(editing, todayIso())}
        render={({ handleSubmit, submitting, values }) => (
          <form onSubmit={handleSubmit} noValidate aria-label="Recurring entry">
            <DialogBody>
              <FormErrorCallout />
              <RadioGroupField
                name="transaction_type"
                label="Type"
                inline
                options={[
                  { value: 'D', label: 'Debit (money out)' },
                  { value: 'C', label: 'Credit (money in)' },
                ]}
              />
              <NumberField name="amount" label="Amount (₹)" placeholder="0.00" />
              <InputGroupField name="notes" label="Notes" placeholder="e.g. Rent, Salary, SIP" autoFocus />
              <InputGroupField name="payee" label="Payee" placeholder="Optional" />
              <HTMLSelectField
                name="category_id"
                label="Category"
                options={[
                  { value: '', label: 'None' },
                  ...categoryOptions(
                    categories.data ?? [],
                    values.transaction_type === 'C' ? 'income' : 'expense',
                  ),
                ]}
              />
              <HTMLSelectField
                name="account_id"
                label="Account"
                options={[
                  { value: '', label: 'None' },
                  ...(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name })),
                ]}
              />
              <div className="kosh-form-columns">
                <HTMLSelectField name="frequency" label="Repeats" options={FREQUENCY_OPTIONS} />
                <HTMLSelectField name="day_of_month" label="On" options={DAY_OPTIONS} />
              </div>
              <div className="kosh-form-columns">
                <InputGroupField name="start_date" label="Start Date" type="date" />
                <InputGroupField name="end_date" label="End Date" type="date" helperText="Optional" />
              </div>
            </DialogBody>
            <DialogFooter
              actions={
                <>
                  <Button text="Cancel" onClick={onClose} disabled={submitting} />
                  <Button
                    type="submit"
                    intent="primary"
                    loading={submitting}
                    text={editing ? 'Update Entry' : 'Create Entry'}
                  />
                </>
              }
            />
          </form>
        )}
      />
    </Dialog>
  );
}
