import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { BadRequestError, type FieldError, ValidationError } from '@kosh/domain';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type ErrorEnvelope, sendError } from './errors';
import { applySecurityHeaders, CONTENT_SECURITY_POLICY } from './security-headers';

/** Longest address the API answers; ids, filters and search terms fit many times over. */
export const MAX_URL_LENGTH = 2048;

export const INPUT_MESSAGES = {
  notAllowed: 'contains characters that are not allowed',
  urlTooLong: 'The address is too long.',
  badUrl: 'The address is not valid: it has a malformed % escape.',
  charset: 'Send the body as UTF-8 (charset=utf-8).',
  notUtf8: 'The body is not valid UTF-8.',
} as const;

/** Refuses bytes that are not UTF-8 instead of reading them as U+FFFD (which would be stored). */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * NUL (PostgreSQL text and jsonb cannot hold it) and UTF-16 halves without their other half
 * (not text at all: the driver would store U+FFFD instead, or jsonb refuse the event).
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const isNotText = (value: string) => value.includes('\u0000') || LONE_SURROGATE.test(value);

/**
 * Every string (and key) in a parsed body, query or params that is not storable text, by the
 * wire name of its field. Iterative, so a deeply nested body cannot overflow the stack.
 */
function fieldsWithBadText(root: unknown): FieldError[] {
  const bad = new Set<string>();
  const pending: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  while (pending.length > 0) {
    const { value, path } = pending.pop() as { value: unknown; path: string };
    if (typeof value === 'string') {
      if (isNotText(value)) bad.add(path || 'body');
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (isNotText(key)) {
          bad.add(path || 'body');
          continue;
        }
        pending.push({ value: child, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return [...bad].map((field) => ({ field, message: INPUT_MESSAGES.notAllowed }));
}

/** A charset other than UTF-8 declared on the body (JSON is UTF-8 by definition, RFC 8259). */
function foreignCharset(contentType: string | undefined): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  return charset !== undefined && charset !== 'utf-8' && charset !== 'utf8';
}

/**
 * Refuses input the domain rules never see: over-long addresses (414), bodies in another charset
 * (415) or not valid UTF-8 (400), and strings that are not text (422 per field), before anything
 * reads or stores them.
 */
export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request, reply) => {
      if (request.url.length > MAX_URL_LENGTH) {
        return sendError(reply, 414, INPUT_MESSAGES.urlTooLong, 'URI_TOO_LONG');
      }
      if (foreignCharset(request.headers['content-type'])) {
        return sendError(reply, 415, INPUT_MESSAGES.charset, 'UNSUPPORTED_CHARSET');
      }
    });
    // Fastify's own JSON parser (prototype poisoning refused), fed text decoded strictly.
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      let text: string;
      try {
        text = strictUtf8.decode(body as Buffer);
      } catch {
        done(new BadRequestError(INPUT_MESSAGES.notUtf8, 'INVALID_UTF8'), undefined);
        return;
      }
      parseJson(request, text, done);
    });
    app.addHook('preValidation', async (request) => {
      const errors = [
        ...fieldsWithBadText(request.params),
        ...fieldsWithBadText(request.query),
        ...fieldsWithBadText(request.body),
      ];
      if (errors.length > 0) throw new ValidationError(errors);
    });
  },
  { name: 'input-guard', dependencies: ['errors'] },
);

/** Fastify's `frameworkErrors`: a malformed % escape (400) or an over-long path parameter (414). */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // These answers skip every hook, the security headers' onSend included.
  applySecurityHeaders(request, reply, request.server.platform.config.APP_URL);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendError(reply, 414, INPUT_MESSAGES.urlTooLong, 'URI_TOO_LONG');
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    return sendError(reply, 400, INPUT_MESSAGES.badUrl, 'BAD_URL');
  }
  return sendError(reply, error.statusCode ?? 400, error.message, error.code ?? 'BAD_REQUEST');
}

/** The security headers of every answer, for the raw-socket answers below (no request, no reply). */
const RAW_SECURITY_HEADERS =
  `Content-Security-Policy: ${CONTENT_SECURITY_POLICY}\r\nX-Frame-Options: DENY\r\n` +
  'X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\nCache-Control: no-store\r\n';

/**
 * Fastify's `clientErrorHandler`: Node refuses the request before any route runs (a request line
 * or headers over its 16 KB limit, a malformed request, a timeout); the answer is still the
 * envelope. Mirrors Fastify's default (no answer on a reset socket, then close it).
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message, errorCode] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers or address are too long.', 'HEADERS_TOO_LARGE']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive.', 'REQUEST_TIMEOUT']
        : [400, 'The request is malformed.', 'BAD_REQUEST'];
  const envelope: ErrorEnvelope = {
    success: false,
    message,
    errorCode,
    errors: [],
    timestamp: new Date().toISOString(),
  };
  const body = JSON.stringify(envelope);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n${RAW_SECURITY_HEADERS}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
