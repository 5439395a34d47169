/**
 * Spec section 3: the server speaks snake_case, the screens and the domain camelCase. Keys are
 * converted recursively; values (including `errors[].field`) are left alone. The only converter
 * of the codebase: the web's base query, the API's field errors and `Camel<T>` below agree on it.
 */
export const toCamelKey = (key: string): string =>
  key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export const toSnakeKey = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function convertKeys(value: unknown, convert: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, convert));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [convert(k), convertKeys(v, convert)]));
}

export const camelizeKeys = (value: unknown): unknown => convertKeys(value, toCamelKey);
export const snakifyKeys = (value: unknown): unknown => convertKeys(value, toSnakeKey);

/** `toCamelKey` at the type level: 'total_items' → 'totalItems'. */
export type CamelKey<K extends string> = K extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelKey<Tail>>}`
  : K;

/**
 * A wire shape as `camelizeKeys` returns it. A screen's type derived from a contract type this
 * way stops compiling when the wire field it reads is renamed.
 */
export type Camel<T> = T extends readonly (infer Item)[]
  ? Camel<Item>[]
  : T extends object
    ? { [K in keyof T as K extends string ? CamelKey<K> : K]: Camel<T[K]> }
    : T;

/**
 * A client's own, narrower type for a request the server takes loosely (bodies and queries accept
 * any value so that each bad one gets its own message). It must name only the request's fields
 * and fit their wire types: a renamed or removed wire field fails the check.
 */
export type Narrowed<Wire, T extends Wire & Record<Exclude<keyof T, keyof Wire>, never>> = T;

/** `Narrowed` for a request the client writes in camelCase (the web's base query snake-cases it). */
export type CamelBody<
  Wire,
  T extends Camel<Wire> & Record<Exclude<keyof T, keyof Camel<Wire>>, never>,
> = Narrowed<Camel<Wire>, T>;
