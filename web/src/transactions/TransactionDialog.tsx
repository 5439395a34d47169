import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { fieldKeys, TRANSACTION_FIELDS, validateTransaction, type WireNames } from '@kosh/domain';
import type { SubmissionErrors } from 'final-form';
import { Fragment, type ReactNode } from 'react';
import { Form } from 'react-final-form';
import { type Account, useGetAccountsQuery } from '../accounts/accountsApi';
import { useReturnFocus } from '../app/useReturnFocus';
import { type Category, categoryOptions, useGetCategoriesQuery } from '../categories/categoriesApi';
import { todayIso } from '../format';
import {
  amountText,
  FormErrorCallout,
  formValidator,
  HTMLSelectField,
  InputGroupField,
  NumberField,
  TextAreaField,
  toWireSubmissionErrors,
} from '../forms';
import { useSubmissionKey } from '../forms/useSubmissionKey';
import { toast } from '../toaster';
import {
  type Transaction,
  type TransactionBody,
  useCreateTransactionMutation,
  useUpdateTransactionMutation,
} from './transactionsApi';

/**
 * The form holds every declared field (TRANSACTION_FIELDS) as typed, under its wire name, which is
 * also the domain validator's field name. A field added to the table does not compile until the
 * initial values, the body and `INPUTS` have it.
 */
type Values = Record<WireNames<typeof TRANSACTION_FIELDS>, string>;

/** The names a 422 may name. */
const FIELDS: readonly string[] = fieldKeys(TRANSACTION_FIELDS).map((key) => TRANSACTION_FIELDS[key].wire);

/** Each field's input, in the order the dialog shows them. */
type Lists = { accounts: readonly Account[]; categories: readonly Category[] };
const INPUTS: Record<keyof Values, (lists: Lists) => ReactNode> = {
  notes: () => (
    <TextAreaField name="notes" label="Notes" rows={3} placeholder="What was this for?" autoFocus />
  ),
  transaction_type: () => (
    <HTMLSelectField
      name="transaction_type"
      label="Transaction Type"
      options={[
        { value: '', label: 'Select type' },
        { value: 'C', label: 'Credit (Income)' },
        { value: 'D', label: 'Debit (Expense)' },
      ]}
    />
  ),
  transaction_date: () => <InputGroupField name="transaction_date" label="Transaction Date" type="date" />,
  amount: () => <NumberField name="amount" label="Amount (₹)" placeholder="0.00" />,
  account_id: ({ accounts }) => (
    <HTMLSelectField
      name="account_id"
      label="Account"
      options={[{ value: '', label: 'No account' }, ...accounts.map((a) => ({ value: a.id, label: a.name }))]}
    />
  ),
  category_id: ({ categories }) => (
    <HTMLSelectField
      name="category_id"
      label="Category"
      options={[{ value: '', label: 'No category' }, ...categoryOptions(categories)]}
    />
  ),
  payee: () => <InputGroupField name="payee" label="Payee" placeholder="Who was paid, or paid you" />,
};

const validateTyped = formValidator<Values>(validateTransaction);
/** The amount as typed or pasted ("₹ 5,000") is judged as the number it says. */
const validate = (values: Values) => validateTyped({ ...values, amount: amountText(values.amount) });

function initialValues(editing: Transaction | null, accountId: string): Values {
  if (!editing) {
    return {
      notes: '',
      transaction_type: '',
      transaction_date: todayIso(),
      amount: '',
      account_id: accountId,
      category_id: '',
      payee: '',
    };
  }
  return {
    notes: editing.notes,
    transaction_type: editing.transaction_type,
    transaction_date: editing.transaction_date.slice(0, 10),
    amount: editing.amount.toFixed(2),
    account_id: editing.account_id ?? '',
    category_id: editing.category_id ?? '',
    payee: editing.payee ?? '',
  };
}

type Props = {
  open: boolean;
  editing: Transaction | null;
  onClose: () => void;
  /** The account a new transaction starts in (the book's account filter), '' for none. */
  accountId?: string;
  /** Called with the saved transaction when the user gave it a category it did not have (issue 31). */
  onCategorised?: (transaction: Transaction) => void;
};

/** 'Add New Transaction' / 'Edit Transaction' (spec section 2). */
export function TransactionDialog({ open, editing, onClose, accountId = '', onCategorised }: Props) {
  useReturnFocus();
  const [create] = useCreateTransactionMutation();
  const [update] = useUpdateTransactionMutation();
  const submission = useSubmissionKey();
  const accounts = useGetAccountsQuery(undefined, { skip: !open });
  const categories = useGetCategoriesQuery(undefined, { skip: !open });

  const save = async (values: Values): Promise<SubmissionErrors | undefined> => {
    const body: TransactionBody = {
      notes: values.notes.trim(),
      transaction_type: values.transaction_type as TransactionBody['transaction_type'],
      transaction_date: values.transaction_date,
      amount: Number(amountText(values.amount)),
      account_id: values.account_id ? values.account_id : null,
      category_id: values.category_id ? values.category_id : null,
      payee: values.payee?.trim() ? values.payee.trim() : null,
    };
    const result = editing
      ? await update({ id: editing.id, body })
      : await create({ body, idempotencyKey: submission.keyFor(body) });
    if ('error' in result) {
      return toWireSubmissionErrors(
        result.error,
        FIELDS,
        editing ? 'Failed to update transaction' : 'Failed to create transaction',
      );
    }
    submission.succeeded();
    toast.success(editing ? 'Transaction updated successfully!' : 'Transaction created successfully!');
    const saved = result.data.data.transaction;
    if (saved.category_id && saved.category_id !== (editing?.category_id ?? null)) onCategorised?.(saved);
    onClose();
    return undefined;
  };

  return (
    <Dialog
      isOpen={open}
      onClose={onClose}
      title={editing ? 'Edit Transaction' : 'Add New Transaction'}
      icon={editing ? 'edit' : 'add'}
    >
      <Form<Values>
        onSubmit={save}
        validate={validate}
        initialValues={initialValues(editing, accountId)}
        render={({ handleSubmit, submitting }) => (
          <form onSubmit={handleSubmit} noValidate>
            <DialogBody>
              <FormErrorCallout />
              {Object.entries(INPUTS).map(([name, input]) => (
                <Fragment key={name}>
                  {input({ accounts: accounts.data ?? [], categories: categories.data ?? [] })}
                </Fragment>
              ))}
            </DialogBody>
            <DialogFooter
              actions={
                <>
                  <Button text="Cancel" onClick={onClose} disabled={submitting} />
                  <Button
                    type="submit"
                    intent="primary"
                    loading={submitting}
                    text={editing ? 'Update Transaction' : 'Create Transaction'}
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
