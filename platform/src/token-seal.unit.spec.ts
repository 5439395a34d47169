import { describe, expect, it } from 'vitest';
import { openToken, sealToken } from './token-seal';

const secret = 'a'.repeat(48);
const token = 'k3y_Xq1yWbq7lq2l3pPp0o0o0o0o0o0o0o0o0o0o0o0';

describe('sealed link tokens', () => {
  it('opens what it sealed, and the sealed form does not contain the token', () => {
    const sealed = sealToken(token, secret);
    expect(sealed).not.toContain(token);
    expect(openToken(sealed, secret)).toBe(token);
  });

  it('seals the same token differently each time', () => {
    expect(sealToken(token, secret)).not.toBe(sealToken(token, secret));
  });

  it('refuses another secret or an altered ciphertext', () => {
    const sealed = sealToken(token, secret);
    expect(() => openToken(sealed, 'b'.repeat(48))).toThrow();
    const bytes = Buffer.from(sealed, 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    expect(() => openToken(bytes.toString('base64url'), secret)).toThrow();
  });
});
