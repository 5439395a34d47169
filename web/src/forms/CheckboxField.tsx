import { Checkbox, type CheckboxProps } from '@blueprintjs/core';
import { useCheckedField } from './useCheckedField';

type Props = Omit<CheckboxProps, 'name' | 'checked' | 'onChange'> & { name: string };

/** react-final-form adapter for Blueprint's Checkbox (a boolean field). */
export function CheckboxField({ name, ...checkbox }: Props) {
  const field = useCheckedField(name);
  return <Checkbox {...checkbox} {...field} />;
}
