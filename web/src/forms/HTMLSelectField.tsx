import { FormGroup, HTMLSelect, type HTMLSelectProps, Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useField } from 'react-final-form';
import { fieldErrorOf } from './fieldError';

type Props = Omit<HTMLSelectProps, 'name' | 'value' | 'onChange'> & {
  name: string;
  label: ReactNode;
  helperText?: ReactNode;
};

/** react-final-form adapter for Blueprint's HTMLSelect; `options` as HTMLSelect takes them. */
export function HTMLSelectField({ name, label, helperText, ...select }: Props) {
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
      <HTMLSelect
        fill
        {...select}
        id={id}
        name={input.name}
        value={input.value ?? ''}
        onChange={input.onChange}
        onBlur={input.onBlur}
        onFocus={input.onFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
    </FormGroup>
  );
}
