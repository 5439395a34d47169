import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import type { SubmissionErrors } from 'final-form';
import { Form } from 'react-final-form';
import { useReturnFocus } from '../app/useReturnFocus';
import { todayIso } from '../format';
import {
  FormErrorCallout,
  HTMLSelectField,
  InputGroupField,
  NumberField,
  toWireSubmissionErrors,
} from '../forms';
import { useSubmissionKey } from '../forms/useSubmissionKey';
import { bankLabel } from '../loans/loanDisplay';
import { useGetBanksQuery } from '../loans/loansApi';
import { toast } from '../toaster';
import {
  ACCOUNT_FORM_FIELDS,
  type AccountValues,
  accountBodyOf,
  accountInitialValues,
  KIND_OPTIONS,
  validateAccountForm,
} from './accountForm';
import { type Account, useCreateAccountMutation, useUpdateAccountMutation } from './accountsApi';

type Props = { open: boolean; editing: Account | null; onClose: () => void };

/** 'Add Account' / 'Edit Account'. */
export function AccountDialog({ open, editing, onClose }: Props) {
  useReturnFocus();
  const [create] = useCreateAccountMutation();
  const [update] = useUpdateAccountMutation();
  const banks = useGetBanksQuery(undefined, { skip: !open });
  const submission = useSubmissionKey();

  const save = async (values: AccountValues): Promise<SubmissionErrors | undefined> => {
    const body = accountBodyOf(values);
    const result = editing
      ? await update({ id: editing.id, body })
      : await create({ body, idempotencyKey: submission.keyFor(body) });
    if ('error' in result) {
      const fallback = editing ? 'Failed to update account' : 'Failed to create account';
      return toWireSubmissionErrors(result.error, ACCOUNT_FORM_FIELDS, fallback);
    }
    submission.succeeded();
    toast.success(editing ? 'Account updated successfully!' : 'Account created successfully!');
    onClose();
    return undefined;
  };

  return (
    <Dialog
      isOpen={open}
      onClose={onClose}
      title={editing ? 'Edit Account' : 'Add Account'}
      icon="bank-account"
    >
      <Form<AccountValues>
        onSubmit={save}
        validate={validateAccountForm}
        initialValues={accountInitialValues(editing, todayIso())}
        render={({ handleSubmit, submitting, values }) => (
          <form onSubmit={handleSubmit} noValidate>
            <DialogBody>
              <FormErrorCallout />
              <InputGroupField name="name" label="Account Name" placeholder="e.g. HDFC Savings" autoFocus />
              <HTMLSelectField name="kind" label="Account Type" options={KIND_OPTIONS} />
              <HTMLSelectField
                name="bank_id"
                label="Bank"
                options={[
                  { value: '', label: 'Not in the list / none' },
                  ...(banks.data ?? []).map((bank) => ({ value: String(bank.id), label: bankLabel(bank) })),
                ]}
              />
              {values.bank_id ? null : (
                <InputGroupField name="bank_name" label="Bank Name (typed)" placeholder="Optional" />
              )}
              <InputGroupField
                name="last_four"
                label="Last Four Digits"
                placeholder="Optional, e.g. 1234"
                inputMode="numeric"
                maxLength={4}
              />
              <NumberField
                name="opening_balance"
                label="Opening Balance (₹)"
                placeholder="0.00"
                helperText={
                  values.kind === 'credit-card' ? 'Dues on a card are negative, e.g. -2,500' : undefined
                }
              />
              <InputGroupField name="opening_date" label="Opening Balance Date" type="date" />
            </DialogBody>
            <DialogFooter
              actions={
                <>
                  <Button text="Cancel" onClick={onClose} disabled={submitting} />
                  <Button
                    type="submit"
                    intent="primary"
                    loading={submitting}
                    text={editing ? 'Update Account' : 'Create Account'}
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
