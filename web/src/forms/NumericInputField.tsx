import { NumericInput, type NumericInputProps } from '@blueprintjs/core';
import { LabelledField, type LabelledFieldProps } from './LabelledField';

type Props = Omit<NumericInputProps, 'name' | 'value' | 'onValueChange' | 'intent'> & LabelledFieldProps;

/**
 * react-final-form adapter for Blueprint's NumericInput. The field holds the text as typed, so
 * partial input ("12.") survives; parse it where the value is used.
 */
export function NumericInputField({ name, label, helperText, ...numeric }: Props) {
  return (
    <LabelledField name={name} label={label} helperText={helperText}>
      {({ control, onChange, intent }) => (
        <NumericInput
          fill
          {...numeric}
          {...control}
          onValueChange={(_number, text) => onChange(text)}
          intent={intent}
        />
      )}
    </LabelledField>
  );
}
