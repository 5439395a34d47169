import { fromPaise, type Paise } from '../money/paise';

/**
 * A record's fields, declared once: each key is the field's camelCase name in the domain, the
 * events and the read model; its entry says how the field is named on the wire, what kind of
 * value it holds, how History labels it, and what a stored event written before the field
 * existed reads as. Everything else derives from the table or is checked against it by the
 * compiler: the record's type (`RecordOf`), the wire in and out (`inputOf`, `wireOf`), change
 * detection (`changedKeys`), the defaults of old events (`withAbsent`), the read model's
 * columns (projections/src/runner/columns.ts), History's labels and diffs
 * (projections/src/history/fields.ts), and the contract's schemas (`WireNames`, checked with
 * `satisfies` in contract/src).
 *
 * To declare a new record (an account, say):
 * 1. `export const ACCOUNT_FIELDS = fieldTable({ name: { wire: 'account_name', kind: 'text',
 *    label: 'Account Name' }, … })` in `domain/src/<record>/fields.ts`, in the order its form
 *    shows the fields (History lists changes in that order);
 * 2. `export type AccountDetails = RecordOf<typeof ACCOUNT_FIELDS>` for the events and state;
 *    decide with `changedKeys`, fold created events through `withAbsent`;
 * 3. in the contract, `Body.properties satisfies Record<WireNames<typeof ACCOUNT_FIELDS>, unknown>`
 *    (and the same for the answer's schema);
 * 4. in projections, `columnsOf(ACCOUNT_FIELDS)` for the SQL and `historyFields(ACCOUNT_FIELDS)`
 *    for History; in the command-api, `inputOf` / `wireOf` for the wire.
 * A later field is then one entry here, its parse rule, its contract entries, a migration and
 * its screen: the compiler or the record's round-trip test points to each of them.
 */

/** What a field holds: how it is typed, stored in SQL, sent on the wire and shown in History. */
export type FieldKind =
  /** A catalog id (PostgreSQL integer). */
  | 'id'
  /** A whole number. */
  | 'int'
  /** A decimal (rate, percentage), stored as `numeric`, sent as a JSON number. */
  | 'number'
  /** Paise in the domain, `numeric(14,2)` rupees in SQL, rupees on the wire. */
  | 'money'
  | 'flag'
  /** YYYY-MM-DD. */
  | 'date'
  | 'text'
  /** The id (uuid) of another record of the user's, such as an account. */
  | 'ref'
  /** One of `values` (text). */
  | 'code';

type KindValue = {
  id: number;
  int: number;
  number: number;
  money: Paise;
  flag: boolean;
  date: string;
  text: string;
  ref: string;
  code: string;
};

export type FieldSpec = Readonly<{
  /** The name on the wire (spec section 3: snake_case, sometimes not the key's own). */
  wire: string;
  kind: FieldKind;
  /** How History (and the screens) name the field. */
  label: string;
  /** The value may be null: an optional field. */
  nullable?: boolean;
  /** `code` fields: the values allowed. */
  values?: readonly string[];
  /** `flag` fields shown as words in History: [on, off]. */
  words?: readonly [string, string];
  /**
   * What a stored event written before the field existed reads as (a nullable field: null).
   * Any field added after records were stored must say it, or their first edit records a change.
   */
  absent?: string | number | boolean | null;
}>;

export type FieldTable = Readonly<Record<string, FieldSpec>>;

/** The value a field holds in the domain. */
export type FieldValue<F extends FieldSpec> =
  | (F extends { kind: 'code'; values: readonly (infer V)[] } ? V : KindValue[F['kind']])
  | (F extends { nullable: true } ? null : never);

type NullableKeys<T extends FieldTable> = {
  [K in keyof T]: T[K] extends { nullable: true } ? K : never;
}[keyof T];

/**
 * The record a table declares, as the domain, its events and its read model hold it. An optional
 * (nullable) field may also be absent: a stored event written before it existed lacks it, and
 * the folds read it through `withAbsent`.
 */
export type RecordOf<T extends FieldTable> = {
  readonly [K in keyof T as K extends NullableKeys<T> ? never : K]: FieldValue<T[K]>;
} & { readonly [K in NullableKeys<T>]?: FieldValue<T[K]> };

/** The wire names of a table's fields. */
export type WireNames<T extends FieldTable> = T[keyof T]['wire'];

/** A field's value on the wire: money in rupees, the rest as held. */
export type WireValue<F extends FieldSpec> = FieldValue<F>;

/** The record's fields as the wire sends them. */
export type WireOf<T extends FieldTable> = {
  [K in keyof T as T[K]['wire']]: WireValue<T[K]>;
};

/** The table, its names and kinds kept as literal types. */
export const fieldTable = <const T extends FieldTable>(table: T): T => table;

/** The table's keys, in declaration order. */
export const fieldKeys = <T extends FieldTable>(table: T): (keyof T & string)[] =>
  Object.keys(table) as (keyof T & string)[];

/** The wire body's fields under their domain names, values untouched (the parser judges them). */
export function inputOf<T extends FieldTable>(
  table: T,
  body: Readonly<Record<string, unknown>>,
): { [K in keyof T]?: unknown } {
  return Object.fromEntries(fieldKeys(table).map((key) => [key, body[table[key]!.wire]])) as {
    [K in keyof T]?: unknown;
  };
}

/** Each table's fields as `wireOf` walks them (a list answer converts every row). */
const wireFields = new WeakMap<FieldTable, readonly { key: string; wire: string; money: boolean }[]>();

/** The record's fields under their wire names, money in rupees. */
export function wireOf<T extends FieldTable>(table: T, record: RecordOf<T>): WireOf<T> {
  let fields = wireFields.get(table);
  if (!fields) {
    fields = fieldKeys(table).map((key) => ({
      key,
      wire: table[key]!.wire,
      money: table[key]!.kind === 'money',
    }));
    wireFields.set(table, fields);
  }
  const values = record as Readonly<Record<string, unknown>>;
  const wire: Record<string, unknown> = {};
  for (const { key, wire: name, money } of fields) {
    const value = values[key] ?? null;
    wire[name] = money && typeof value === 'number' ? fromPaise(value) : value;
  }
  return wire as WireOf<T>;
}

/** The domain key of a wire name (a 422's field), or the name itself when it is not a field. */
export function keyOfWire<T extends FieldTable>(table: T, wire: string): string {
  return fieldKeys(table).find((key) => table[key]!.wire === wire) ?? wire;
}

/** The wire name of a domain key, or null when the key is not a field. */
export function wireOfKey(table: FieldTable, key: string): string | null {
  return table[key]?.wire ?? null;
}

/** The fields whose values differ, in the table's order: what an edit changes. */
export function changedKeys<T extends FieldTable>(
  table: T,
  before: Readonly<Partial<Record<keyof T, unknown>>>,
  after: Readonly<Partial<Record<keyof T, unknown>>>,
): (keyof T & string)[] {
  return fieldKeys(table).filter((key) => before[key] !== after[key]);
}

/** Only the table's fields of `record`. */
export function pickFields<T extends FieldTable>(table: T, record: RecordOf<T>): RecordOf<T> {
  const values = record as Readonly<Record<string, unknown>>;
  return Object.fromEntries(fieldKeys(table).map((key) => [key, values[key]])) as RecordOf<T>;
}

/**
 * `data` with every field a stored event lacks set to what it reads as (`absent`, else null
 * for a nullable field); the same object when it lacks none.
 */
export function withAbsent<T extends FieldTable, D extends object>(table: T, data: D): D {
  const missing = fieldKeys(table).filter(
    (key) => !(key in data) && (table[key]!.absent !== undefined || table[key]!.nullable === true),
  );
  if (missing.length === 0) return data;
  return {
    ...data,
    ...Object.fromEntries(missing.map((key) => [key, table[key]!.absent ?? null])),
  };
}
