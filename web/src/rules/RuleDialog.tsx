import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { parseRule, RULE_FIELDS, type WireNames } from '@kosh/domain';
import type { SubmissionErrors } from 'final-form';
import { Form } from 'react-final-form';
import { useGetAccountsQuery } from '../accounts/accountsApi';
import { useReturnFocus } from '../app/useReturnFocus';
import { categoryOptions, useGetCategoriesQuery } from '../categories/categoriesApi';
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
import { type Rule, type RuleBody, useCreateRuleMutation, useUpdateRuleMutation } from './rulesApi';

/** Every declared rule field (RULE_FIELDS) as typed, under its wire name. */
export type RuleValues = Record<WireNames<typeof RULE_FIELDS>, string>;

const FIELDS: readonly string[] = Object.values(RULE_FIELDS).map((f) => f.wire);

const BLANK: RuleValues = {
  name: '',
  match_text: '',
  match_pattern: '',
  amount_min: '',
  amount_max: '',
  account_id: '',
  transaction_type: '',
  category_id: '',
  payee: '',
};

/** The amounts as typed or pasted ("₹ 5,000") are judged as the numbers they say. */
const validate = formValidator<RuleValues>((values) => {
  // The pattern is the server's to judge (its 422 names it): the web ships no pattern engine.
  const parsed = parseRule(
    {
      ...values,
      amount_min: amountText(values.amount_min),
      amount_max: amountText(values.amount_max),
      // Which categories and accounts are the user's is the server's to say.
      category_id: values.category_id ? '00000000-0000-4000-8000-000000000000' : '',
      account_id: values.account_id ? '00000000-0000-4000-8000-000000000000' : '',
    },
    () => null,
  );
  return parsed.ok ? [] : parsed.errors;
});

function valuesOf(rule: Rule): RuleValues {
  const text = (v: string | number | null) => (v === null ? '' : String(v));
  return {
    name: rule.name,
    match_text: text(rule.match_text),
    match_pattern: text(rule.match_pattern),
    amount_min: rule.amount_min === null ? '' : rule.amount_min.toFixed(2),
    amount_max: rule.amount_max === null ? '' : rule.amount_max.toFixed(2),
    account_id: text(rule.account_id),
    transaction_type: text(rule.transaction_type),
    category_id: text(rule.category_id),
    payee: text(rule.payee),
  };
}

function bodyOf(values: RuleValues): RuleBody {
  const text = (v: string) => (v.trim() === '' ? null : v.trim());
  const money = (v: string) => (v.trim() === '' ? null : Number(amountText(v)));
  return {
    name: values.name.trim(),
    match_text: text(values.match_text),
    // A pattern is sent as typed: its spaces may matter.
    match_pattern: values.match_pattern === '' ? null : values.match_pattern,
    amount_min: money(values.amount_min),
    amount_max: money(values.amount_max),
    account_id: text(values.account_id),
    transaction_type: (text(values.transaction_type) as 'C' | 'D' | null) ?? null,
    category_id: text(values.category_id),
    payee: text(values.payee),
  };
}

type Props = {
  /** The rule edited, or null for a new one. */
  editing: Rule | null;
  /** A new rule's starting values (made from a transaction). */
  initial?: Partial<RuleValues>;
  onClose: () => void;
};

/** 'New Rule' / 'Edit Rule': conditions, then what the rule sets. */
export function RuleDialog({ editing, initial, onClose }: Props) {
  useReturnFocus();
  const [create] = useCreateRuleMutation();
  const [update] = useUpdateRuleMutation();
  const submission = useSubmissionKey();
  const accounts = useGetAccountsQuery(undefined);
  const categories = useGetCategoriesQuery();

  const save = async (values: RuleValues): Promise<SubmissionErrors | undefined> => {
    const body = bodyOf(values);
    const result = editing
      ? await update({ id: editing.id, body })
      : await create({ body, idempotencyKey: submission.keyFor(body) });
    if ('error' in result) {
      return toWireSubmissionErrors(
        result.error,
        FIELDS,
        editing ? 'Failed to update rule' : 'Failed to create rule',
      );
    }
    submission.succeeded();
    toast.success(editing ? 'Rule updated' : 'Rule created');
    onClose();
    return undefined;
  };

  return (
    <Dialog isOpen onClose={onClose} title={editing ? 'Edit Rule' : 'New Rule'} icon="predictive-analysis">
      <Form<RuleValues>
        onSubmit={save}
        validate={validate}
        initialValues={editing ? valuesOf(editing) : { ...BLANK, ...initial }}
        render={({ handleSubmit, submitting }) => (
          <form onSubmit={handleSubmit} noValidate>
            <DialogBody>
              <FormErrorCallout />
              <InputGroupField name="name" label="Name" placeholder="e.g. Food delivery" autoFocus />
              <p className="kosh-muted">When a transaction’s notes or bank narration…</p>
              <InputGroupField name="match_text" label="Contains text" placeholder="e.g. swiggy" />
              <InputGroupField
                name="match_pattern"
                label="Or matches pattern"
                placeholder="e.g. ^UPI/.*(swiggy|zomato)"
                helperText="RE2 syntax, any letter case"
              />
              <div className="kosh-form-row">
                <NumberField name="amount_min" label="Amount from (₹)" placeholder="0.00" />
                <NumberField name="amount_max" label="Amount to (₹)" placeholder="0.00" />
              </div>
              <HTMLSelectField
                name="transaction_type"
                label="Type"
                options={[
                  { value: '', label: 'Credit or debit' },
                  { value: 'C', label: 'Credit (Income)' },
                  { value: 'D', label: 'Debit (Expense)' },
                ]}
              />
              <HTMLSelectField
                name="account_id"
                label="Account"
                options={[
                  { value: '', label: 'Any account' },
                  ...(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name })),
                ]}
              />
              <p className="kosh-muted">…set:</p>
              <HTMLSelectField
                name="category_id"
                label="Category"
                options={[
                  { value: '', label: 'Leave the category' },
                  ...categoryOptions(categories.data ?? []),
                ]}
              />
              <InputGroupField name="payee" label="Payee" placeholder="Leave the payee" />
            </DialogBody>
            <DialogFooter
              actions={
                <>
                  <Button text="Cancel" onClick={onClose} disabled={submitting} />
                  <Button
                    type="submit"
                    intent="primary"
                    loading={submitting}
                    text={editing ? 'Update Rule' : 'Create Rule'}
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
