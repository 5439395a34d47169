import { toCamelKey } from '@kosh/contract';
import { FORM_ERROR, type SubmissionErrors } from 'final-form';
import { isApiError } from '../api/apiError';

/**
 * Maps a failed call back onto the form: each 422 item onto its field (wire names are
 * snake_case), anything else onto the form as a whole.
 */
export function toSubmissionErrors(
  error: unknown,
  fields: readonly string[],
  fallback: string,
): SubmissionErrors {
  if (!isApiError(error)) return { [FORM_ERROR]: fallback };
  const errors: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const { field, message } of error.errors) {
    const name = toCamelKey(field);
    if (fields.includes(name)) errors[name] ??= message;
    else unplaced.push(field ? `${field}: ${message}` : message);
  }
  if (error.status !== 422 || Object.keys(errors).length === 0 || unplaced.length > 0) {
    errors[FORM_ERROR] = unplaced.length > 0 ? unplaced.join('\n') : error.message || fallback;
  }
  return errors;
}

/**
 * `toSubmissionErrors` for a form whose fields carry the wire names themselves (the transaction
 * and account dialogs): 422 items on their fields, anything else on the form.
 */
export function toWireSubmissionErrors(
  error: unknown,
  fields: readonly string[],
  fallback: string,
): SubmissionErrors {
  if (!isApiError(error)) return { [FORM_ERROR]: fallback };
  const errors: Record<string, string> = {};
  for (const { field, message } of error.errors) if (fields.includes(field)) errors[field] ??= message;
  if (Object.keys(errors).length === 0) errors[FORM_ERROR] = error.message || fallback;
  return errors;
}
