import { Button, Dialog, DialogBody, DialogFooter, type IconName } from '@blueprintjs/core';
import type { Camel, ScheduleResponse } from '@kosh/contract';
import type { SubmissionErrors } from 'final-form';
import { type ReactNode, useRef } from 'react';
import { Form } from 'react-final-form';
import { useReturnFocus } from '../../app/useReturnFocus';
import { FormErrorCallout, toSubmissionErrors } from '../../forms';
import { useSubmissionKey } from '../../forms/useSubmissionKey';
import { toast } from '../../toaster';
import '../loan-changes.css';

/** What a change mutation resolves to. */
export type ChangeResult = { data: Camel<ScheduleResponse> } | { error: unknown };

export type LoanChangeDialogProps<V extends object> = {
  title: string;
  icon: IconName;
  submitText: string;
  initialValues: V;
  /** The form's field names: a 422 item naming one lands on it, anything else above the form. */
  fields: readonly (keyof V & string)[];
  validate?: (values: V) => Record<string, string>;
  /** Failure text when the server says nothing. */
  fallback: string;
  /** Success toast when the server says nothing. */
  success: string;
  send: (values: V, idempotencyKey: string) => Promise<ChangeResult>;
  /**
   * A step before the commit (the what-if): while `pending(values)`, submitting runs `run`
   * instead of `send`, under the button text `text`.
   */
  step?: {
    pending: (values: V) => boolean;
    run: (values: V) => Promise<SubmissionErrors | undefined>;
    text: string;
  };
  onClose: () => void;
  children: (values: V) => ReactNode;
  className?: string;
};

/**
 * The dialog of one change to a loan (part-payment, foreclosure, rate change, EMI override, paid
 * EMI): mounted only while open, a react-final-form form whose 422 items land on their fields,
 * one Idempotency-Key per submission, the server's success message as a toast, focus back to the
 * button that opened it.
 */
export function LoanChangeDialog<V extends object>(props: LoanChangeDialogProps<V>) {
  const { title, icon, submitText, initialValues, fields, validate, fallback, success } = props;
  const { send, step, onClose, children, className } = props;
  useReturnFocus();
  const submission = useSubmissionKey();
  const form = useRef<HTMLFormElement>(null);

  /**
   * The busy submit button is disabled while the call runs, which drops focus to the page (where
   * Escape no longer reaches the dialog): after the answer, focus goes to what it brought (the
   * what-if table), else the submit button. A field in error takes it from there: every form's
   * refused submission moves focus to its first field in error (app/focusFirstInvalid.ts).
   */
  const refocus = () =>
    requestAnimationFrame(() => {
      const root = form.current;
      if (!root || (document.activeElement && document.activeElement !== document.body)) return;
      const target =
        root.querySelector<HTMLElement>('[data-focus-after-submit]') ??
        root.querySelector<HTMLElement>('button[type="submit"]');
      target?.focus();
    });

  const submit = async (values: V): Promise<SubmissionErrors | undefined> => {
    if (step?.pending(values)) {
      const errors = await step.run(values);
      refocus();
      return errors;
    }
    const result = await send(values, submission.keyFor(values));
    if ('error' in result) {
      refocus();
      return toSubmissionErrors(result.error, fields, fallback);
    }
    submission.succeeded();
    toast.success(result.data.message || success);
    onClose();
    return undefined;
  };

  return (
    <Dialog isOpen onClose={onClose} title={title} icon={icon} className={className}>
      <Form<V>
        onSubmit={submit}
        validate={validate}
        initialValues={initialValues}
        render={({ handleSubmit, submitting, values }) => (
          <form ref={form} onSubmit={handleSubmit} noValidate>
            <DialogBody>
              <FormErrorCallout />
              {children(values)}
            </DialogBody>
            <DialogFooter
              actions={
                <>
                  <Button text="Cancel" onClick={onClose} disabled={submitting} />
                  <Button
                    type="submit"
                    intent="primary"
                    loading={submitting}
                    text={step?.pending(values) ? step.text : submitText}
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
