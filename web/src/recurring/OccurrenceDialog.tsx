import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { recurringAmountOf, recurringNotesOf } from '@kosh/domain';
import type { SubmissionErrors } from 'final-form';
import { Form } from 'react-final-form';
import { useReturnFocus } from '../app/useReturnFocus';
import { formatDate } from '../format';
import { amountText, FormErrorCallout, InputGroupField, NumberField, toWireSubmissionErrors } from '../forms';
import { toast } from '../toaster';
import { type Occurrence, useChangeOccurrenceMutation } from './recurringApi';

type Values = { amount?: string; notes?: string };

function validate(values: Values): Record<string, string> {
  const amount = recurringAmountOf(amountText(values.amount));
  const notes = recurringNotesOf(values.notes);
  return {
    ...(typeof amount === 'number' ? {} : { amount: amount.error }),
    ...(typeof notes === 'string' ? {} : { notes: notes.error }),
  };
}

/** 'Change Occurrence': another amount or notes for one date only. */
export function OccurrenceDialog({ occurrence, onClose }: { occurrence: Occurrence; onClose: () => void }) {
  useReturnFocus();
  const [change] = useChangeOccurrenceMutation();
  const save = async (values: Values): Promise<SubmissionErrors | undefined> => {
    const result = await change({
      id: occurrence.recurring_id,
      date: occurrence.date,
      amount: Number(amountText(values.amount)),
      notes: (values.notes ?? '').trim(),
    });
    if ('error' in result)
      return toWireSubmissionErrors(result.error, ['amount', 'notes'], 'Failed to change the occurrence');
    toast.success('Occurrence changed');
    onClose();
    return undefined;
  };
  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={`Change occurrence of ${formatDate(occurrence.date)}`}
      icon="edit"
    >
      <Form<Values>
        onSubmit={save}
        validate={validate}
        initialValues={{ amount: occurrence.amount.toFixed(2), notes: occurrence.notes }}
        render={({ handleSubmit, submitting }) => (
          <form onSubmit={handleSubmit} noValidate aria-label="Change occurrence">
            <DialogBody>
              <FormErrorCallout />
              <NumberField name="amount" label="Amount (₹)" autoFocus />
              <InputGroupField name="notes" label="Notes" />
            </DialogBody>
            <DialogFooter
              actions={
                <>
                  <Button text="Cancel" onClick={onClose} disabled={submitting} />
                  <Button type="submit" intent="primary" loading={submitting} text="Save Change" />
                </>
              }
            />
          </form>
        )}
      />
    </Dialog>
  );
}
