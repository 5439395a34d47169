import { TextArea, type TextAreaProps } from '@blueprintjs/core';
import { LabelledField, type LabelledFieldProps } from './LabelledField';

type Props = Omit<TextAreaProps, 'name' | 'value' | 'onChange' | 'intent'> & LabelledFieldProps;

/** react-final-form adapter for Blueprint's TextArea. */
export function TextAreaField({ name, label, helperText, ...textArea }: Props) {
  return (
    <LabelledField name={name} label={label} helperText={helperText}>
      {({ control, onChange, intent }) => (
        <TextArea fill {...textArea} {...control} onChange={onChange} intent={intent} />
      )}
    </LabelledField>
  );
}
