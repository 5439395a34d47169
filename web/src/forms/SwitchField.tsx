import { Switch, type SwitchProps } from '@blueprintjs/core';
import { useCheckedField } from './useCheckedField';

type Props = Omit<SwitchProps, 'name' | 'checked' | 'onChange'> & { name: string };

/** react-final-form adapter for Blueprint's Switch (a boolean field). */
export function SwitchField({ name, ...toggle }: Props) {
  const field = useCheckedField(name);
  return <Switch {...toggle} {...field} />;
}
