import { isIsoDate, LOAN_CHANGE_MESSAGES as M } from '@kosh/domain';
import { amountText } from '../../forms/amountText';

const RUPEES = /^\d+(\.\d{1,2})?$/;

/**
 * Rupees as the server reads them once `amountText` has read the typing ("₹ 5,000" is 5000):
 * digits with at most 2 decimals, more than 0 unless `zero`.
 */
export function isRupees(value: string | undefined, zero = false): boolean {
  const text = amountText(value);
  return RUPEES.test(text) && (zero || Number(text) > 0);
}

/** An annual rate the server takes: a plain decimal from 0.1 to 50. */
export function isRate(value: string | undefined): boolean {
  const text = amountText(value);
  return /^\d+(\.\d+)?$/.test(text) && Number(text) >= 0.1 && Number(text) <= 50;
}

type Rule<V> = readonly [keyof V & string, (value: string) => boolean, string];

/** A validator of the change forms from (field, test, message) rules; messages are the server's. */
export function changeValidator<V extends object>(rules: readonly Rule<V>[]) {
  return (values: V): Record<string, string> => {
    const errors: Record<string, string> = {};
    for (const [field, ok, message] of rules) {
      const value = (values as Record<string, unknown>)[field];
      if (!ok(typeof value === 'string' ? value : '')) errors[field] ??= message;
    }
    return errors;
  };
}

export const dateRule = <V>(field: keyof V & string): Rule<V> => [field, isIsoDate, M.dateInvalid];
export const amountRule = <V>(field: keyof V & string): Rule<V> => [
  field,
  (v) => isRupees(v),
  M.amountInvalid,
];
export const emiRule = <V>(field: keyof V & string): Rule<V> => [field, (v) => isRupees(v), M.emiInvalid];
/** An optional charge: empty is ₹0. */
export const chargeRule = <V>(field: keyof V & string): Rule<V> => [
  field,
  (v) => amountText(v) === '' || isRupees(v, true),
  M.chargeInvalid,
];

/** The optional charge as sent: empty is 0. */
export const chargeOf = (value: string | undefined): string => amountText(value) || '0';
