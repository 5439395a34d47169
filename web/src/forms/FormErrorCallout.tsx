import { Callout, Intent } from '@blueprintjs/core';
import { useFormState } from 'react-final-form';

/** The form-level error of the last submit, until the user edits the form again. */
export function FormErrorCallout() {
  const { submitError, dirtySinceLastSubmit } = useFormState({
    subscription: { submitError: true, dirtySinceLastSubmit: true },
  });
  if (!submitError || dirtySinceLastSubmit) return null;
  return (
    <Callout intent={Intent.DANGER} icon="error" className="kosh-form-error" role="alert">
      {String(submitError)}
    </Callout>
  );
}
