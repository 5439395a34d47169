import type { FormState } from 'final-form';

type SubmitState = Pick<FormState<unknown>, 'submitting' | 'hasValidationErrors'>;

/**
 * Submit is disabled only while the form is invalid or busy (spec section 2): a server rejection
 * (a wrong password, a failed call) leaves it enabled, so the user may simply try again.
 */
export function canSubmit(state: SubmitState): boolean {
  return !state.submitting && !state.hasValidationErrors;
}
