import type { FieldError } from '@kosh/domain';

/** The domain's validators return a list; final-form wants `{ field: message }`. */
export function toFormErrors(errors: FieldError[]): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const { field, message } of errors) byField[field] ??= message;
  return byField;
}

export function formValidator<T>(
  validate: (values: T) => FieldError[],
): (values: T) => Record<string, string> {
  return (values) => toFormErrors(validate(values));
}
