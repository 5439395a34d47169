import { Checkbox, type CheckboxProps } from '@blueprintjs/core';
import { useField } from 'react-final-form';

type Props = Omit<CheckboxProps, 'name' | 'checked' | 'onChange'> & { name: string };

/** react-final-form adapter for Blueprint's Checkbox (a boolean field). */
export function CheckboxField({ name, ...checkbox }: Props) {
  const { input } = useField<boolean>(name, { type: 'checkbox' });
  return (
    <Checkbox
      {...checkbox}
      name={input.name}
      checked={!!input.checked}
      onChange={input.onChange}
      onBlur={input.onBlur}
      onFocus={input.onFocus}
    />
  );
}
