import { FormGroup, Intent, NumericInput, type NumericInputProps } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useField } from 'react-final-form';
import { fieldErrorOf } from './fieldError';

type Props = Omit<NumericInputProps, 'name' | 'value' | 'onValueChange' | 'intent'> & {
  name: string;
  label: ReactNode;
  helperText?: ReactNode;
};

/**
 * react-final-form adapter for Blueprint's NumericInput. The field holds the text as typed, so
 * partial input ("12.") survives; parse it where the value is used.
 */
export function NumericInputField({ name, label, helperText, ...numeric }: Props) {
  const { input, meta } = useField<string>(name);
  const error = fieldErrorOf(meta);
  const id = `field-${name}`;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      intent={error ? Intent.DANGER : Intent.NONE}
      helperText={error ? <span id={`${id}-error`}>{error}</span> : helperText}
    >
      <NumericInput
        fill
        {...numeric}
        id={id}
        name={input.name}
        value={input.value ?? ''}
        onValueChange={(_number, text) => input.onChange(text)}
        onBlur={input.onBlur}
        onFocus={input.onFocus}
        intent={error ? Intent.DANGER : Intent.NONE}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
    </FormGroup>
  );
}
