import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normalizeEmail } from './secrets';

export const TOO_MANY_REQUESTS = 'Too many requests. Please try again later.';

type Limit = { max: number; windowMs: number };

const MINUTE = 60_000;

/**
 * Abuse limits of the auth routes: per client address and, where the body names one, per e-mail
 * address (so spreading requests over many addresses or many clients does not help). Login has
 * no per-e-mail limit here: that would let a stranger lock the owner out; see lockout.ts.
 */
export const AUTH_LIMITS = {
  login: { perIp: { max: 100, windowMs: 15 * MINUTE } },
  register: { perIp: { max: 50, windowMs: 60 * MINUTE }, perEmail: { max: 5, windowMs: 60 * MINUTE } },
  forgotPassword: { perIp: { max: 50, windowMs: 60 * MINUTE }, perEmail: { max: 5, windowMs: 60 * MINUTE } },
  resendVerification: {
    perIp: { max: 50, windowMs: 60 * MINUTE },
    perEmail: { max: 5, windowMs: 60 * MINUTE },
  },
  verifyEmail: { perIp: { max: 100, windowMs: 15 * MINUTE } },
  resetPassword: { perIp: { max: 100, windowMs: 15 * MINUTE } },
  /** Issue 32: every route that checks a two-factor code (besides the lockout of lockout.ts). */
  twoFactor: { perIp: { max: 100, windowMs: 15 * MINUTE } },
} satisfies Record<string, { perIp: Limit; perEmail?: Limit }>;

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * A `preHandler` (the body is parsed by then) counting the request against both limits of `route`;
 * 429 with the spec's message once either is exceeded. Off when RATE_LIMIT_ENABLED is false.
 * Uses @fastify/rate-limit's store through `createRateLimit`, one counter per key.
 */
export function authRateLimit(app: FastifyInstance, route: keyof typeof AUTH_LIMITS): Hook {
  const limits: { perIp: Limit; perEmail?: Limit } = AUTH_LIMITS[route];
  const byIp = app.createRateLimit({
    max: limits.perIp.max,
    timeWindow: limits.perIp.windowMs,
    keyGenerator: (request) => `auth:${route}:ip:${request.ip}`,
  });
  const byEmail = limits.perEmail
    ? app.createRateLimit({
        max: limits.perEmail.max,
        timeWindow: limits.perEmail.windowMs,
        keyGenerator: (request) => `auth:${route}:email:${emailOf(request)}`,
      })
    : null;
  return async (request, reply) => {
    if (!app.platform.config.RATE_LIMIT_ENABLED) return;
    const checks = [byIp(request)];
    if (byEmail && emailOf(request)) checks.push(byEmail(request));
    for (const result of await Promise.all(checks)) refuseWhenExceeded(result, reply);
  };
}

/** Issue 14: granting audit access sends a mail, so one signed-in user may grant only so often. */
export const AUDIT_GRANT_LIMIT: Limit = { max: 20, windowMs: 60 * MINUTE };

/**
 * A `preHandler` counting POST /api/audit-grants per signed-in user (after `authenticate`); 429
 * with the spec's message once over AUDIT_GRANT_LIMIT. Off when RATE_LIMIT_ENABLED is false.
 */
export function auditGrantRateLimit(app: FastifyInstance): Hook {
  const byUser = app.createRateLimit({
    max: AUDIT_GRANT_LIMIT.max,
    timeWindow: AUDIT_GRANT_LIMIT.windowMs,
    keyGenerator: (request) => `audit-grants:user:${request.userId}`,
  });
  return async (request, reply) => {
    if (!app.platform.config.RATE_LIMIT_ENABLED) return;
    refuseWhenExceeded(await byUser(request), reply);
  };
}

/** Issue 30: statement uploads are read whole (up to 10 MB), so one signed-in user may upload only so often. */
export const IMPORT_UPLOAD_LIMIT: Limit = { max: 30, windowMs: 10 * MINUTE };

/** A `preHandler` counting POST /api/imports per signed-in user (after `authenticate`); 429 past the limit. */
export function importUploadRateLimit(app: FastifyInstance): Hook {
  const byUser = app.createRateLimit({
    max: IMPORT_UPLOAD_LIMIT.max,
    timeWindow: IMPORT_UPLOAD_LIMIT.windowMs,
    keyGenerator: (request) => `imports:user:${request.userId}`,
  });
  return async (request, reply) => {
    if (!app.platform.config.RATE_LIMIT_ENABLED) return;
    refuseWhenExceeded(await byUser(request), reply);
  };
}

type CheckResult = Awaited<ReturnType<ReturnType<FastifyInstance['createRateLimit']>>>;

function refuseWhenExceeded(result: CheckResult, reply: FastifyReply): void {
  if (!result.isAllowed && result.isExceeded) {
    reply.header('Retry-After', String(result.ttlInSeconds));
    throw Object.assign(new Error(TOO_MANY_REQUESTS), { statusCode: 429 });
  }
}

function emailOf(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | null | undefined)?.email;
  return typeof email === 'string' ? normalizeEmail(email) : '';
}
