import {
  type FieldKind,
  type FieldTable,
  fieldKeys,
  type RecordOf,
  toDecimalString,
  toPaise,
} from '@kosh/domain';

/**
 * A read model's columns for a record's declared fields (`fieldTable` in the domain): the SQL
 * of the select list, the upsert's column list, its `jsonb_to_recordset` types and its conflict
 * update, and the conversions between the row and SQL, all from the one table. A column is the
 * key in snake_case (`processingFeeGst` → `processing_fee_gst`); its SQL type and how it is read
 * come from the field's kind. A new field needs its migration (`ALTER TABLE … ADD COLUMN`) and
 * nothing here.
 */

const SQL_TYPES: Record<FieldKind, string> = {
  id: 'integer',
  int: 'integer',
  number: 'numeric',
  money: 'numeric',
  flag: 'boolean',
  date: 'date',
  text: 'text',
  ref: 'uuid',
  code: 'text',
};

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The select list entry of a column, as `fromSql` reads it (`alias.` prefixed when given). */
function selectOf(kind: FieldKind, column: string, alias: string): string {
  const ref = `${alias}${column}`;
  switch (kind) {
    case 'money':
    case 'number':
    case 'ref':
      return `${ref}::text AS ${column}`;
    case 'date':
      return `to_char(${ref}, 'YYYY-MM-DD') AS ${column}`;
    default:
      return ref === column ? column : `${ref} AS ${column}`;
  }
}

function readOf(kind: FieldKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'money':
      return toPaise(value as string);
    case 'number':
    case 'int':
    case 'id':
      return Number(value);
    default:
      return value;
  }
}

export type Columns<T extends FieldTable> = Readonly<{
  /** `SELECT` entries, `alias.` prefixed when an alias is given: `to_char(l.start_date, …) AS start_date`. */
  select: (alias?: string) => string;
  /** The columns of `INSERT INTO t (…)`. */
  insert: string;
  /** `r."key"` of each field for the `SELECT` from `jsonb_to_recordset(…) AS r(…)`. */
  values: string;
  /** `"key" type` of each field, for `AS r(…)`. */
  recordset: string;
  /** `column = EXCLUDED.column` of each field, for `ON CONFLICT … DO UPDATE SET`. */
  update: string;
  /** The fields of a row as read by `select` (snake_case columns, money as text) → the record. */
  fromSql: (row: Readonly<Record<string, unknown>>) => RecordOf<T>;
  /** The fields of a record as `recordset` reads them (money as decimal rupees). */
  toRecord: (record: RecordOf<T>) => Record<keyof T, unknown>;
}>;

/** The columns of `table`'s fields. */
export function columnsOf<T extends FieldTable>(table: T): Columns<T> {
  const fields = fieldKeys(table).map((key) => ({ key, kind: table[key]!.kind, column: snake(key) }));
  return {
    select: (alias) =>
      fields.map((f) => selectOf(f.kind, f.column, alias === undefined ? '' : `${alias}.`)).join(', '),
    insert: fields.map((f) => f.column).join(', '),
    values: fields.map((f) => `r."${f.key}"`).join(', '),
    recordset: fields.map((f) => `"${f.key}" ${SQL_TYPES[f.kind]}`).join(', '),
    update: fields.map((f) => `${f.column} = EXCLUDED.${f.column}`).join(', '),
    fromSql: (row) => {
      // A loop, not fromEntries: every row of every list goes through it.
      const record: Record<string, unknown> = {};
      for (const f of fields) record[f.key] = readOf(f.kind, row[f.column]);
      return record as RecordOf<T>;
    },
    toRecord: (record) =>
      Object.fromEntries(
        fields.map((f) => {
          const value = (record as Readonly<Record<string, unknown>>)[f.key];
          return [f.key, f.kind === 'money' && typeof value === 'number' ? toDecimalString(value) : value];
        }),
      ) as Record<keyof T, unknown>,
  };
}
