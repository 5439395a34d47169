import { FormGroup, Intent, Radio, RadioGroup } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useField } from 'react-final-form';
import { fieldErrorOf } from './fieldError';

type Props = {
  name: string;
  label: ReactNode;
  options: readonly { value: string; label: string }[];
  inline?: boolean;
  disabled?: boolean;
};

/** react-final-form adapter for Blueprint's RadioGroup. */
export function RadioGroupField({ name, label, options, inline, disabled }: Props) {
  const { input, meta } = useField<string>(name);
  const error = fieldErrorOf(meta);
  return (
    <FormGroup intent={error ? Intent.DANGER : Intent.NONE} helperText={error}>
      <RadioGroup
        label={label}
        name={input.name}
        selectedValue={input.value ?? ''}
        onChange={(event) => input.onChange(event.currentTarget.value)}
        inline={inline}
        disabled={disabled}
      >
        {options.map((option) => (
          <Radio key={option.value} value={option.value} label={option.label} />
        ))}
      </RadioGroup>
    </FormGroup>
  );
}
