import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A request id a client or proxy may choose: short and plain (it lands in logs and the event log). */
const PLAIN_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Fastify's `genReqId`: the caller's X-Request-Id when it is at most 64 of [A-Za-z0-9._-], so a
 * proxy's id still joins its logs to ours; anything else (8 KB of markup, several headers) is
 * replaced by a fresh UUID rather than stored as the events' correlation id.
 */
export function requestIdOf(request: Pick<IncomingMessage, 'headers'>): string {
  const header = request.headers['x-request-id'];
  return typeof header === 'string' && PLAIN_REQUEST_ID.test(header) ? header : randomUUID();
}
