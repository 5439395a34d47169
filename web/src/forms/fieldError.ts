import type { FieldMetaState } from 'react-final-form';

/** A field shows its rule error once touched, and a server error until the user edits it. */
export function fieldErrorOf(meta: FieldMetaState<unknown>): string | undefined {
  if (meta.touched && typeof meta.error === 'string') return meta.error;
  if (!meta.dirtySinceLastSubmit && typeof meta.submitError === 'string') return meta.submitError;
  return undefined;
}
