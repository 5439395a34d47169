import { NumberField } from '../../forms';

type Props = { name: string; label: string; autoFocus?: boolean };

/** An amount in rupees with paise, as typed or pasted ("₹ 5,000"); its dialog's rule judges it. */
export function RupeesField({ name, label, autoFocus }: Props) {
  return <NumberField name={name} label={label} placeholder="0.00" autoFocus={autoFocus} />;
}
