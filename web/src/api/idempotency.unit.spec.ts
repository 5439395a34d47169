import { describe, expect, it } from 'vitest';
import { carriesIdempotencyKey, idempotencyHeaders, newIdempotencyKey } from './idempotency';

describe('Idempotency-Key', () => {
  it('is a fresh random UUID v4 each time', () => {
    const keys = Array.from({ length: 1000 }, newIdempotencyKey);
    for (const key of keys)
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('only a request carrying a key counts as safe to resend', () => {
    const key = newIdempotencyKey();
    expect(carriesIdempotencyKey({ url: '/loans', method: 'POST', headers: idempotencyHeaders(key) })).toBe(
      true,
    );
    expect(
      carriesIdempotencyKey({ url: '/loans', method: 'POST', headers: new Headers(idempotencyHeaders(key)) }),
    ).toBe(true);
    expect(
      carriesIdempotencyKey({ url: '/loans', method: 'POST', headers: [['idempotency-key', key]] }),
    ).toBe(true);
    expect(
      carriesIdempotencyKey({ url: '/loans', method: 'POST', headers: { 'idempotency-key': key } }),
    ).toBe(true);
    expect(carriesIdempotencyKey({ url: '/loans', method: 'POST', body: {} })).toBe(false);
    expect(carriesIdempotencyKey({ url: '/loans/1', method: 'PUT', headers: { 'If-Match': '"2"' } })).toBe(
      false,
    );
    expect(carriesIdempotencyKey('/loans')).toBe(false);
  });
});
