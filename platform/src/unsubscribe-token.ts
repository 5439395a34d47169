import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * A reminder mail's one-click unsubscribe link (issue 31): who, which kind of reminder, and the
 * token's own id, signed with HMAC-SHA-256 under a key derived from `JWT_SECRET`. Opening it needs
 * no sign-in; the notification stream spends its id, so a link works once.
 */
export type UnsubscribeClaim = Readonly<{ userId: string; kind: string; tokenId: string }>;

function keyFrom(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'kosh', 'reminder-unsubscribe/v1', 32));
}

export function signUnsubscribeToken(claim: UnsubscribeClaim, secret: string): string {
  const body = Buffer.from(JSON.stringify({ u: claim.userId, k: claim.kind, t: claim.tokenId })).toString(
    'base64url',
  );
  const mac = createHmac('sha256', keyFrom(secret)).update(body).digest('base64url');
  return `${body}.${mac}`;
}

/** The claim of a token signed under `secret`, or null (malformed, altered, another secret). */
export function openUnsubscribeToken(token: string, secret: string): UnsubscribeClaim | null {
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined || body.length > 1000) return null;
  const expected = createHmac('sha256', keyFrom(secret)).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const { u, k, t } = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    if (typeof u !== 'string' || typeof k !== 'string' || typeof t !== 'string') return null;
    return { userId: u, kind: k, tokenId: t };
  } catch {
    return null;
  }
}
