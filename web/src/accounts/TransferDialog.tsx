import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { type TransferInput, validateTransfer } from '@kosh/domain';
import type { SubmissionErrors } from 'final-form';
import { Form } from 'react-final-form';
import { useReturnFocus } from '../app/useReturnFocus';
import { todayIso } from '../format';
import {
  amountText,
  FormErrorCallout,
  formValidator,
  HTMLSelectField,
  InputGroupField,
  NumberField,
  toWireSubmissionErrors,
} from '../forms';
import { useSubmissionKey } from '../forms/useSubmissionKey';
import { toast } from '../toaster';
import { type Account, type TransferBody, useCreateTransferMutation } from './accountsApi';

type Values = {
  from_account_id?: string;
  to_account_id?: string;
  amount?: string;
  transfer_date?: string;
  notes?: string;
};

const FIELDS: readonly string[] = ['from_account_id', 'to_account_id', 'amount', 'transfer_date', 'notes'];

const validateTyped = formValidator<TransferInput>(validateTransfer);
const validate = (values: Values) => validateTyped({ ...values, amount: amountText(values.amount) });

type Props = { accounts: readonly Account[]; fromAccountId?: string; onClose: () => void };

/** 'Transfer Between Accounts': one transfer, shown in both registers, never income or expense. */
export function TransferDialog({ accounts, fromAccountId = '', onClose }: Props) {
  useReturnFocus();
  const [create] = useCreateTransferMutation();
  const submission = useSubmissionKey();
  const options = [
    { value: '', label: 'Select account' },
    ...accounts.map((a) => ({ value: a.id, label: a.name })),
  ];

  const save = async (values: Values): Promise<SubmissionErrors | undefined> => {
    const body: TransferBody = {
      from_account_id: values.from_account_id ?? '',
      to_account_id: values.to_account_id ?? '',
      amount: Number(amountText(values.amount)),
      transfer_date: values.transfer_date ?? '',
      notes: (values.notes ?? '').trim(),
    };
    const result = await create({ body, idempotencyKey: submission.keyFor(body) });
    if ('error' in result) return toWireSubmissionErrors(result.error, FIELDS, 'Failed to record transfer');
    submission.succeeded();
    toast.success('Transfer recorded successfully!');
    onClose();
    return undefined;
  };

  return (
    <Dialog isOpen onClose={onClose} title="Transfer Between Accounts" icon="swap-horizontal">
      <Form<Values>
        onSubmit={save}
        validate={validate}
        initialValues={{ from_account_id: fromAccountId, transfer_date: todayIso() }}
        render={({ handleSubmit, submitting }) => (
          <form onSubmit={handleSubmit} noValidate>
            <DialogBody>
              <FormErrorCallout />
              <HTMLSelectField name="from_account_id" label="From Account" options={options} autoFocus />
              <HTMLSelectField name="to_account_id" label="To Account" options={options} />
              <NumberField name="amount" label="Amount (₹)" placeholder="0.00" />
              <InputGroupField name="transfer_date" label="Transfer Date" type="date" />
              <InputGroupField name="notes" label="Notes" placeholder="Optional" />
            </DialogBody>
            <DialogFooter
              actions={
                <>
                  <Button text="Cancel" onClick={onClose} disabled={submitting} />
                  <Button type="submit" intent="primary" loading={submitting} text="Record Transfer" />
                </>
              }
            />
          </form>
        )}
      />
    </Dialog>
  );
}
