import { InputGroupField } from '../../forms';

type Props = { name: string; label: string; optional?: boolean; autoFocus?: boolean };

/** An amount in rupees with paise: more than ₹0, or (`optional`, a charge) ₹0 and up. */
export function RupeesField({ name, label, optional, autoFocus }: Props) {
  return (
    <InputGroupField
      name={name}
      label={label}
      type="number"
      step="0.01"
      min={optional ? '0' : '0.01'}
      inputMode="decimal"
      placeholder="0.00"
      autoFocus={autoFocus}
    />
  );
}
