import { HTMLSelect, type HTMLSelectProps } from '@blueprintjs/core';
import { LabelledField, type LabelledFieldProps } from './LabelledField';

type Props = Omit<HTMLSelectProps, 'name' | 'value' | 'onChange'> & LabelledFieldProps;

/** react-final-form adapter for Blueprint's HTMLSelect; `options` as HTMLSelect takes them. */
export function HTMLSelectField({ name, label, helperText, ...select }: Props) {
  return (
    <LabelledField name={name} label={label} helperText={helperText}>
      {({ control, onChange }) => <HTMLSelect fill {...select} {...control} onChange={onChange} />}
    </LabelledField>
  );
}
