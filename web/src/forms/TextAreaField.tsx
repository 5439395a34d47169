import { FormGroup, Intent, TextArea, type TextAreaProps } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useField } from 'react-final-form';
import { fieldErrorOf } from './fieldError';

type Props = Omit<TextAreaProps, 'name' | 'value' | 'onChange' | 'intent'> & {
  name: string;
  label: ReactNode;
  helperText?: ReactNode;
};

/** react-final-form adapter for Blueprint's TextArea. */
export function TextAreaField({ name, label, helperText, ...textArea }: Props) {
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
      <TextArea
        fill
        {...textArea}
        id={id}
        name={input.name}
        value={input.value ?? ''}
        onChange={input.onChange}
        onBlur={input.onBlur}
        onFocus={input.onFocus}
        intent={error ? Intent.DANGER : Intent.NONE}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
    </FormGroup>
  );
}
