import type { FetchArgs } from '@reduxjs/toolkit/query';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * A random UUID (v4) for an Idempotency-Key. Not `crypto.randomUUID`: browsers offer it only in
 * secure contexts, and the embedded app is often opened over plain http on a LAN address.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The headers of a create sent under `key`. */
export const idempotencyHeaders = (key: string) => ({ [IDEMPOTENCY_HEADER]: key });

/** A request the server answers once per key, so that sending it again can never write twice. */
export function carriesIdempotencyKey(request: string | FetchArgs): boolean {
  if (typeof request === 'string' || !request.headers) return false;
  const { headers } = request;
  if (headers instanceof Headers) return headers.has(IDEMPOTENCY_HEADER);
  const names = Array.isArray(headers) ? headers.map(([name]) => name) : Object.keys(headers);
  return names.some((name) => name?.toLowerCase() === 'idempotency-key');
}
