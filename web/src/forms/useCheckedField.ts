import { useField } from 'react-final-form';

/** A boolean field as Blueprint's Checkbox and Switch take it (they carry their own label). */
export function useCheckedField(name: string) {
  const { input } = useField<boolean>(name, { type: 'checkbox' });
  return {
    name: input.name,
    checked: !!input.checked,
    onChange: input.onChange,
    onBlur: input.onBlur,
    onFocus: input.onFocus,
  };
}
