import { Switch, type SwitchProps } from '@blueprintjs/core';
import { useField } from 'react-final-form';

type Props = Omit<SwitchProps, 'name' | 'checked' | 'onChange'> & { name: string };

/** react-final-form adapter for Blueprint's Switch (a boolean field). */
export function SwitchField({ name, ...toggle }: Props) {
  const { input } = useField<boolean>(name, { type: 'checkbox' });
  return (
    <Switch
      {...toggle}
      name={input.name}
      checked={!!input.checked}
      onChange={input.onChange}
      onBlur={input.onBlur}
      onFocus={input.onFocus}
    />
  );
}
