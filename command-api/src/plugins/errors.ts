import {
  BadRequestError,
  ConflictError,
  DomainError,
  type FieldError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from '@kosh/domain';
import {
  AppendOutcomeUnknownError,
  ConcurrencyError,
  isConnectionError,
  wasNeverSent,
} from '@kosh/event-store';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

export type ErrorEnvelope = {
  success: false;
  message: string;
  errorCode: string;
  errors: FieldError[];
  timestamp: string;
};

/**
 * The answer to a command whose events may or may not be stored (the database went away during
 * the append and did not come back in time): neither "saved" nor "failed" would be true.
 */
export const OUTCOME_UNKNOWN_MESSAGE =
  'We could not confirm that your change was saved. Reload to check it before trying again.';

/**
 * The answer while the database cannot be reached (a read, or a command refused before anything
 * was appended): the service is down for a moment, not broken, and retrying is right.
 */
export const UNAVAILABLE_MESSAGE = 'Kosh cannot reach its database just now. Please try again in a moment.';

const STATUS_BY_ERROR_CODE: Record<string, number> = {
  VALIDATION_ERROR: 422,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  BAD_REQUEST: 400,
};

export function sendError(
  reply: FastifyReply,
  status: number,
  message: string,
  errorCode: string,
  errors: FieldError[] = [],
) {
  const body: ErrorEnvelope = {
    success: false,
    message,
    errorCode,
    errors,
    timestamp: new Date().toISOString(),
  };
  return reply.status(status).send(body);
}

/** By class, so a specific errorCode (EMAIL_TAKEN, STALE_VERSION…) keeps its class's status. */
function statusOf(error: DomainError): number {
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ConflictError) return 409;
  if (error instanceof UnauthorizedError) return 401;
  if (error instanceof ForbiddenError) return 403;
  if (error instanceof BadRequestError) return 400;
  return STATUS_BY_ERROR_CODE[error.errorCode] ?? 400;
}

/**
 * Fastify's schema errors name the field by JSON pointer; the envelope names it by its wire name,
 * once: a value matching no branch of a union says which types would do ("must be string or null").
 */
function schemaFieldErrors(error: FastifyError): FieldError[] {
  const byField = new Map<string, { types: string[]; message: string }>();
  for (const v of error.validation ?? []) {
    const missing = (v.params as { missingProperty?: string } | undefined)?.missingProperty;
    const pointer = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const field = [pointer, missing].filter(Boolean).join('.') || error.validationContext || 'request';
    const entry = byField.get(field) ?? {
      types: [],
      message: missing ? `${missing} is a required field` : `${field} ${v.message ?? 'is invalid'}`,
    };
    const type = (v.params as { type?: unknown } | undefined)?.type;
    if (v.keyword === 'type' && typeof type === 'string') entry.types.push(type);
    byField.set(field, entry);
  }
  return [...byField].map(([field, { types, message }]) => ({
    field,
    message: types.length > 1 ? `${field} must be ${types.join(' or ')}` : message,
  }));
}

/**
 * The one error handler (STYLE.md): typed domain errors and store conflicts become the
 * envelope of ARCHITECTURE.md ("Money, dates, errors"); 5xx never shows internals.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof ValidationError) {
        return sendError(reply, 422, error.message, error.errorCode, error.errors);
      }
      if (error instanceof DomainError) {
        return sendError(reply, statusOf(error), error.message, error.errorCode);
      }
      if (error instanceof ConcurrencyError) {
        return sendError(
          reply,
          409,
          'This record was changed by another request. Reload it and try again.',
          error.errorCode,
        );
      }
      if (error instanceof AppendOutcomeUnknownError) {
        request.log.error({ err: error }, 'append outcome unknown');
        return sendError(reply, 503, OUTCOME_UNKNOWN_MESSAGE, error.errorCode);
      }
      if (error.validation) {
        return sendError(reply, 422, 'Validation failed', 'VALIDATION_ERROR', schemaFieldErrors(error));
      }
      if (isConnectionError(error) || wasNeverSent(error)) {
        request.log.warn({ err: error }, 'database unreachable');
        reply.header('retry-after', '5');
        return sendError(reply, 503, UNAVAILABLE_MESSAGE, 'SERVICE_UNAVAILABLE');
      }
      const status = error.statusCode ?? 500;
      if (status === 429) {
        return sendError(reply, 429, 'Too many requests. Please try again later.', 'RATE_LIMITED');
      }
      if (status >= 400 && status < 500) {
        const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : (error.code ?? 'BAD_REQUEST');
        return sendError(reply, status, error.message, code);
      }
      request.log.error({ err: error }, 'request failed');
      return sendError(reply, 500, 'Server error. Please try again later.', 'INTERNAL_ERROR');
    });
  },
  { name: 'errors' },
);
