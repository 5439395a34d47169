import { FormGroup, InputGroup, type InputGroupProps, Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useField } from 'react-final-form';
import { fieldErrorOf } from './fieldError';

type Props = Omit<
  InputGroupProps,
  'name' | 'value' | 'onChange' | 'onBlur' | 'onFocus' | 'intent' | 'label'
> & {
  name: string;
  label: ReactNode;
  helperText?: ReactNode;
};

/** react-final-form adapter for Blueprint's InputGroup, wrapped in a labelled FormGroup. */
export function InputGroupField({ name, label, helperText, type = 'text', ...input }: Props) {
  const { input: field, meta } = useField<string>(name);
  const error = fieldErrorOf(meta);
  const id = `field-${name}`;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      intent={error ? Intent.DANGER : Intent.NONE}
      helperText={error ? <span id={`${id}-error`}>{error}</span> : helperText}
    >
      <InputGroup
        {...input}
        id={id}
        type={type}
        name={field.name}
        value={field.value ?? ''}
        onChange={field.onChange}
        onBlur={field.onBlur}
        onFocus={field.onFocus}
        intent={error ? Intent.DANGER : Intent.NONE}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
    </FormGroup>
  );
}
