import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import type { FieldError } from '@kosh/domain';
// Its own entry: the budget rules stay out of the chunk every route (the sign-in one too) loads.
import { BUDGET_MESSAGES, parseBudgetTerms } from '@kosh/domain/validation/budget';
import type { SubmissionErrors } from 'final-form';
import { Form } from 'react-final-form';
import { useReturnFocus } from '../app/useReturnFocus';
import { categoryLabel, useGetCategoriesQuery } from '../categories/categoriesApi';
import {
  amountText,
  FormErrorCallout,
  HTMLSelectField,
  NumberField,
  SwitchField,
  toFormErrors,
  toWireSubmissionErrors,
} from '../forms';
import { useSubmissionKey } from '../forms/useSubmissionKey';
import { toast } from '../toaster';
import { type Budget, useCreateBudgetMutation, useUpdateBudgetMutation } from './budgetsApi';

type Values = { category_id?: string; amount?: string; rollover?: boolean };
const FIELDS = ['category_id', 'amount', 'rollover'] as const;

/** The domain's rules, as the API applies them (a category is checked again by the server). */
function validate(values: Values, editing: boolean): Record<string, string> {
  const errors: FieldError[] = [];
  if (!editing && !values.category_id)
    errors.push({ field: 'category_id', message: BUDGET_MESSAGES.categoryRequired });
  const terms = parseBudgetTerms({ amount: amountText(values.amount), rollover: values.rollover ?? false });
  if (!terms.ok) errors.push(...terms.errors);
  return toFormErrors(errors);
}

type Props = { open: boolean; editing: Budget | null; budgeted: readonly string[]; onClose: () => void };

/** 'Set Budget' / 'Edit Budget': an expense category (fixed once set), a monthly amount, rollover. */
export function BudgetDialog({ open, editing, budgeted, onClose }: Props) {
  useReturnFocus();
  const [create] = useCreateBudgetMutation();
  const [update] = useUpdateBudgetMutation();
  const categories = useGetCategoriesQuery(undefined, { skip: !open });
  const submission = useSubmissionKey();
  const all = categories.data ?? [];
  const options = all
    .filter((c) => c.kind === 'expense' && (c.id === editing?.category_id || !budgeted.includes(c.id)))
    .map((c) => ({ value: c.id, label: categoryLabel(c, all) }));

  const save = async (values: Values): Promise<SubmissionErrors | undefined> => {
    const body = { amount: amountText(values.amount), rollover: values.rollover ?? false };
    const result = editing
      ? await update({ id: editing.id, body })
      : await create({
          body: { ...body, category_id: values.category_id },
          idempotencyKey: submission.keyFor({ ...body, category_id: values.category_id }),
        });
    if ('error' in result) {
      const fallback = editing ? 'Failed to update budget' : 'Failed to set budget';
      return toWireSubmissionErrors(result.error, FIELDS, fallback);
    }
    submission.succeeded();
    toast.success(editing ? 'Budget updated successfully!' : 'Budget set successfully!');
    onClose();
    return undefined;
  };

  return (
    <Dialog isOpen={open} onClose={onClose} title={editing ? 'Edit Budget' : 'Set Budget'} icon="pie-chart">
      <Form<Values>
        onSubmit={save}
        validate={(values) => validate(values, editing !== null)}
        initialValues={
          editing
            ? { category_id: editing.category_id, amount: String(editing.amount), rollover: editing.rollover }
            : { rollover: false }
        }
        render={({ handleSubmit, submitting }) => (
          <form onSubmit={handleSubmit} noValidate>
            <DialogBody>
              <FormErrorCallout />
              <HTMLSelectField
                name="category_id"
                label="Category"
                disabled={editing !== null}
                options={[{ value: '', label: 'Select an expense category' }, ...options]}
              />
              <NumberField name="amount" label="Monthly Amount (₹)" placeholder="e.g. 10,000" autoFocus />
              <SwitchField name="rollover" label="Roll over what is left of a month into the next" />
            </DialogBody>
            <DialogFooter
              actions={
                <>
                  <Button text="Cancel" onClick={onClose} disabled={submitting} />
                  <Button
                    type="submit"
                    intent="primary"
                    loading={submitting}
                    text={editing ? 'Update Budget' : 'Set Budget'}
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
