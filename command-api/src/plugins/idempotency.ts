import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { migrate } from '@kosh/event-store';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import {
  type Claim,
  claimKey,
  idempotencyMigrations,
  readKey,
  releaseKey,
  type StoredAnswer,
  storeAnswer,
  sweepKeys,
} from '../idempotency/store';
import { sendError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route honours `Idempotency-Key` (resource creates). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
  }
}

export const IDEMPOTENCY_MESSAGES = {
  keyInvalid: 'Idempotency-Key must be 1 to 255 visible ASCII characters.',
  keyReused:
    'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
  keyInProgress: 'A request with this Idempotency-Key is still being processed. Try again shortly.',
} as const;

const HEADER = 'idempotency-key';

const IdempotencyHeaders = Type.Object({
  [HEADER]: Type.Optional(
    Type.String({
      description:
        'Any unique string (a UUID per form submission): a retry with the same key and body within 24 h ' +
        'answers the first answer and records nothing; the same key with another body is a 422.',
    }),
  ),
});
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Headers of the first answer that a replay repeats. */
const REPLAYED_HEADERS = ['etag', 'x-event-position'] as const;
const IN_FLIGHT_POLL_MS = 25;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** JSON with object keys sorted, so that the same body hashes the same whatever its key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The request a key stands for: method, path (with its ids) and body. */
function requestHashOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${canonicalJson(request.body ?? null)}`)
    .digest('hex');
}

function replay(reply: FastifyReply, answer: StoredAnswer) {
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  return reply
    .status(answer.status)
    .header('Idempotent-Replayed', 'true')
    .type('application/json; charset=utf-8')
    .send(answer.body);
}

/**
 * `Idempotency-Key` on the routes marked `config: { idempotent: true }`: the same key and request
 * of the same user within 24 h answers the first answer again and runs nothing; the same key
 * with another request is a 422. The first request claims the key in `idempotency_keys` before
 * its command runs, so a concurrent twin waits for that answer instead of appending a second
 * entry. A failed request (not 2xx) gives the key back, so retrying it runs it afresh.
 */
export const idempotencyPlugin = fp(
  async (app: FastifyInstance) => {
    const { db } = app.platform;
    await migrate(db, [idempotencyMigrations]);
    let lastSweep = 0;
    // How long a twin waits for the first request with its key before a 409: a create runs for
    // about its read-your-writes wait at most, so twice that bound.
    const inFlightWaitMs = 2 * app.platform.config.READ_YOUR_WRITES_TIMEOUT_MS;
    app.decorateRequest('idempotencyClaim', null);

    // Documents the header in OpenAPI on every route that honours it.
    app.addHook('onRoute', (route) => {
      if (!route.config?.idempotent) return;
      route.schema = { ...route.schema, headers: IdempotencyHeaders };
    });

    app.addHook('preHandler', async (request, reply) => {
      if (!request.routeOptions.config.idempotent) return;
      const header = request.headers[HEADER];
      if (header === undefined) return;
      const key = Array.isArray(header) ? header.join(', ') : header;
      if (!KEY_PATTERN.test(key)) {
        return sendError(reply, 422, IDEMPOTENCY_MESSAGES.keyInvalid, 'VALIDATION_ERROR', [
          { field: 'Idempotency-Key', message: IDEMPOTENCY_MESSAGES.keyInvalid },
        ]);
      }
      const { userId } = request;
      const requestHash = requestHashOf(request);
      const waitUntil = Date.now() + inFlightWaitMs;
      for (;;) {
        const now = app.platform.clock();
        if (now.getTime() - lastSweep >= SWEEP_EVERY_MS) {
          lastSweep = now.getTime();
          await sweepKeys(db, now);
        }
        request.idempotencyClaim = await claimKey(db, { userId, key, createdAt: now }, requestHash);
        if (request.idempotencyClaim) return;
        const record = await readKey(db, userId, key, now);
        if (record && record.requestHash !== requestHash) {
          return sendError(reply, 422, IDEMPOTENCY_MESSAGES.keyReused, 'IDEMPOTENCY_KEY_REUSED', [
            { field: 'Idempotency-Key', message: IDEMPOTENCY_MESSAGES.keyReused },
          ]);
        }
        if (record?.answer) return replay(reply, record.answer);
        if (Date.now() >= waitUntil) {
          return sendError(reply, 409, IDEMPOTENCY_MESSAGES.keyInProgress, 'IDEMPOTENCY_KEY_IN_PROGRESS');
        }
        // The first request is still running (or just gave the key back): look again shortly.
        await sleep(IN_FLIGHT_POLL_MS);
      }
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const claim = request.idempotencyClaim;
      if (!claim) return payload;
      request.idempotencyClaim = null;
      const succeeded = reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string';
      // 503 from a command route: the events may be stored (errors.ts OUTCOME_UNKNOWN). The key
      // stays claimed, so a retry is refused (409) rather than recording the change twice.
      if (reply.statusCode === 503) return payload;
      try {
        if (!succeeded) {
          await releaseKey(db, claim);
          return payload;
        }
        const headers: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        await storeAnswer(db, claim, { status: reply.statusCode, headers, body: payload });
      } catch (error) {
        // The command's answer stands. The key stays claimed, so a retry is refused (409) until
        // it expires rather than risking a second entry.
        request.log.error({ err: error }, 'idempotency key not settled');
      }
      return payload;
    });
  },
  { name: 'idempotency', dependencies: ['errors', 'auth'] },
);
