import type { ComponentProps } from 'react';
import { InputGroupField } from './InputGroupField';

type Props = Omit<ComponentProps<typeof InputGroupField>, 'type' | 'inputMode'>;

/**
 * A number (an amount, a rate, a duration) in a plain text input with the decimal keypad: a
 * `type="number"` input drops a pasted "1,00,000" or "₹ 5,000" before the form sees it, and shows
 * nothing for letters. The form keeps the text; `amountText` reads it where it is used.
 */
export function NumberField(props: Props) {
  return <InputGroupField {...props} type="text" inputMode="decimal" autoComplete="off" />;
}
