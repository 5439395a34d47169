import type { FormState } from 'final-form';

type SubmitState = Pick<
  FormState<unknown>,
  'submitting' | 'hasValidationErrors' | 'hasSubmitErrors' | 'dirtySinceLastSubmit'
>;

/**
 * Submit is disabled while the form is invalid or busy. A server rejection counts as invalid
 * only until the user edits the form (final-form's `invalid` would keep it disabled for good).
 */
export function canSubmit(state: SubmitState): boolean {
  return (
    !state.submitting && !state.hasValidationErrors && !(state.hasSubmitErrors && !state.dirtySinceLastSubmit)
  );
}
