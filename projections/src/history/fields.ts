import { fromPaise, type Paise } from '@kosh/domain';

/** A timeline entry's field changes: the names the screens use, money in rupees. Pure. */

export type ChangeValue = string | number | boolean | null;
export type FieldChange = { field: string; from: ChangeValue; to: ChangeValue };

export type Names = {
  banks: ReadonlyMap<number, string>;
  loanTypes: ReadonlyMap<number, string>;
  /** The loan a loan event is about, as the screens name it, by the event's position. */
  loans?: ReadonlyMap<string, string>;
};

export type Field = { label: string; show: (value: unknown, names: Names) => ChangeValue };

export const text: Field['show'] = (v) => (v === undefined || v === null ? null : String(v));
export const money: Field['show'] = (v) => (typeof v === 'number' ? fromPaise(v as Paise) : null);
export const number: Field['show'] = (v) => (typeof v === 'number' ? v : null);
export const yesNo: Field['show'] = (v) => (typeof v === 'boolean' ? v : null);
export const period =
  (yes: string, no: string): Field['show'] =>
  (v) =>
    typeof v === 'boolean' ? (v ? yes : no) : null;

export type Values = Record<string, unknown> | null | undefined;

/** One change per field (in the table's order) whose shown value differs between `from` and `to`. */
export function diff(fields: Record<string, Field>, from: Values, to: Values, names: Names): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [key, field] of Object.entries(fields)) {
    const before = from && key in from ? field.show(from[key], names) : null;
    const after = to && key in to ? field.show(to[key], names) : null;
    if (before !== after) changes.push({ field: field.label, from: before, to: after });
  }
  return changes;
}
