/**
 * Spec section 3: the server speaks snake_case, the screens camelCase. Keys are converted
 * recursively; values (including `errors[].field`) are left alone.
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

/** Ledger and transaction answers are read in the server's own names (spec section 3). */
export function keepsServerNames(url: string): boolean {
  return /^\/?(transactions|ledger)(\/|\?|$)/.test(url);
}
