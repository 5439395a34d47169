import { InputGroup, type InputGroupProps } from '@blueprintjs/core';
import { LabelledField, type LabelledFieldProps } from './LabelledField';

type Props = Omit<
  InputGroupProps,
  'name' | 'value' | 'onChange' | 'onBlur' | 'onFocus' | 'intent' | 'label'
> &
  LabelledFieldProps;

/** react-final-form adapter for Blueprint's InputGroup, wrapped in a labelled FormGroup. */
export function InputGroupField({ name, label, helperText, type = 'text', ...input }: Props) {
  return (
    <LabelledField name={name} label={label} helperText={helperText}>
      {({ control, onChange, intent }) => (
        <InputGroup {...input} {...control} type={type} onChange={onChange} intent={intent} />
      )}
    </LabelledField>
  );
}
