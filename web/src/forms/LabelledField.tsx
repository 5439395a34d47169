import { FormGroup, Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { type FieldInputProps, useField } from 'react-final-form';
import { fieldErrorOf } from './fieldError';

/** What an adapter's caller gives besides the input's own props. */
export type LabelledFieldProps = {
  name: string;
  label: ReactNode;
  helperText?: ReactNode;
};

/** The props every labelled control takes as they are; each input wires `onChange` its own way. */
type Control = {
  id: string;
  name: string;
  value: string;
  onBlur: FieldInputProps<string>['onBlur'];
  onFocus: FieldInputProps<string>['onFocus'];
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

type Field = { control: Control; onChange: FieldInputProps<string>['onChange']; intent: Intent };

/**
 * final-form's default parse turns a cleared input into `undefined`, so a value typed as text
 * would stop being one (and `.trim()` on it took a page down): a cleared field holds "".
 */
const keepText = (value: string | undefined): string => value ?? '';

/**
 * The labelled FormGroup the form adapters share. The error (see fieldErrorOf) takes the helper
 * text's place, colours the group and is what a screen reader reads with the control.
 */
export function LabelledField({
  name,
  label,
  helperText,
  children,
}: LabelledFieldProps & { children: (field: Field) => ReactNode }) {
  const { input, meta } = useField<string>(name, { parse: keepText });
  const error = fieldErrorOf(meta);
  const id = `field-${name}`;
  const errorId = `${id}-error`;
  const intent = error ? Intent.DANGER : Intent.NONE;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      intent={intent}
      helperText={error ? <span id={errorId}>{error}</span> : helperText}
    >
      {children({
        control: {
          id,
          name: input.name,
          value: input.value ?? '',
          onBlur: input.onBlur,
          onFocus: input.onFocus,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? errorId : undefined,
        },
        onChange: input.onChange,
        intent,
      })}
    </FormGroup>
  );
}
