import { type FieldSpec, type FieldTable, fieldKeys, fromPaise, type Paise } from '@kosh/domain';

/** A timeline entry's field changes: the names the screens use, money in rupees. Pure. */

export type ChangeValue = string | number | boolean | null;
export type FieldChange = { field: string; from: ChangeValue; to: ChangeValue };

export type Names = {
  banks: ReadonlyMap<number, string>;
  loanTypes: ReadonlyMap<number, string>;
  /** The loan a loan event is about, as the screens name it, by the event's position. */
  loans?: ReadonlyMap<string, string>;
  /** The accounts the event names, by id, as they were named when it was recorded. */
  accounts?: ReadonlyMap<string, string>;
  /** The user's categories' names by id (issue 31), deleted ones too. */
  categories?: ReadonlyMap<string, string>;
};

/** A category's id as its name (the id when the name is not known). */
export const categoryName: Field['show'] = (v, names) =>
  typeof v === 'string' ? (names.categories?.get(v) ?? v) : null;

export type Field = { label: string; show: (value: unknown, names: Names) => ChangeValue };

export const text: Field['show'] = (v) => (v === undefined || v === null ? null : String(v));
export const money: Field['show'] = (v) => (typeof v === 'number' ? fromPaise(v as Paise) : null);
/** An account by its name (an account the user cannot see: its id's first characters). */
export const account: Field['show'] = (v, names) =>
  typeof v === 'string' ? (names.accounts?.get(v) ?? `Account ${v.slice(0, 8)}…`) : null;
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

/** How History shows a field of a kind; `words` of a flag show it as one of two words. */
function showOf(spec: FieldSpec): Field['show'] {
  switch (spec.kind) {
    case 'money':
      return money;
    case 'number':
    case 'int':
    case 'id':
      return number;
    case 'flag':
      return spec.words ? period(spec.words[0], spec.words[1]) : yesNo;
    default:
      return text;
  }
}

/**
 * History's fields of a record, from its declared table (labels, and how each kind is shown),
 * in the table's order; `shows` replaces how a field is shown (a catalog id by its name).
 */
export function historyFields<T extends FieldTable>(
  table: T,
  shows: Partial<Record<keyof T, Field['show']>> = {},
): Record<keyof T & string, Field> {
  return Object.fromEntries(
    fieldKeys(table).map((key) => [
      key,
      { label: table[key]!.label, show: shows[key] ?? showOf(table[key]!) },
    ]),
  ) as Record<keyof T & string, Field>;
}
