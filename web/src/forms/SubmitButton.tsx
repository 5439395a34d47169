import { Button, type ButtonProps, Intent, Spinner } from '@blueprintjs/core';
import { useFormState } from 'react-final-form';
import { canSubmit } from './canSubmit';

type Props = Omit<ButtonProps, 'type' | 'disabled' | 'loading'> & {
  /** Shown with a small spinner while submitting, instead of Blueprint's spinner-only button. */
  busyText?: string;
};

/** The form's submit button: disabled while invalid or busy (spec section 2). */
export function SubmitButton({ busyText, intent = Intent.PRIMARY, text, icon, ...button }: Props) {
  const state = useFormState({
    subscription: {
      submitting: true,
      hasValidationErrors: true,
    },
  });
  const busy = state.submitting;
  return (
    <Button
      {...button}
      type="submit"
      intent={intent}
      disabled={!canSubmit(state)}
      loading={busy && !busyText}
      icon={busy && busyText ? <Spinner size={16} /> : icon}
      text={busy && busyText ? busyText : text}
    />
  );
}
