import { randomUUID } from 'node:crypto';
import type { NewSession, UserCommand } from '@kosh/domain';
import { UnauthorizedError, userDecider, userStreamId } from '@kosh/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { handleCommand } from '../../commands/handle';
import { commandContext } from '../../commands/route';
import { parseUserAgent } from './user-agent';

/** A sign-in's answer and the next request read these (the token check reads `sessions`). */
export const SESSION_WAIT_FOR = ['users', 'sessions'] as const;

const DAY_MS = 24 * 60 * 60_000;
/** As the access token: a day, 30 with "remember me". */
export const sessionTtlMs = (rememberMe: boolean) => (rememberMe ? 30 : 1) * DAY_MS;

/** A second step must follow the password within this long. */
export const PENDING_SIGN_IN_MS = 5 * 60_000;

/**
 * A new session for the request's client. The id is made here, fresh at every sign-in, never
 * taken from the client: a session id cannot be planted (fixation).
 */
export function newSession(request: FastifyRequest, rememberMe: boolean): NewSession {
  const now = request.server.platform.clock().getTime();
  const { browser, os } = parseUserAgent(request.headers['user-agent']);
  return {
    sessionId: randomUUID(),
    browser,
    os,
    address: request.ip,
    expiresAt: new Date(now + sessionTtlMs(rememberMe)).toISOString(),
  };
}

/**
 * Records the sign-in (`command` starts `session`, after any second step it includes) and answers
 * the session's access token once the token check can see it.
 */
export async function beginSession(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  session: NewSession,
  command: UserCommand,
  rememberMe: boolean,
): Promise<string> {
  await handleCommand(commandContext(request, { reply, userId }), {
    streamId: userStreamId(userId),
    decider: userDecider,
    command,
    waitFor: SESSION_WAIT_FOR,
  });
  return request.server.issueToken(userId, { rememberMe, sessionId: session.sessionId });
}

/** The claims of a sign-in's pending token (two-factor on): no session, only the second step. */
export type PendingSignIn = { userId: string; challengeId: string; expiresAt: string; rememberMe: boolean };

const PURPOSE = 'two-factor-sign-in';

export function issuePendingToken(app: FastifyInstance, userId: string, rememberMe: boolean): string {
  const now = app.platform.clock().getTime();
  return app.jwt.sign(
    {
      sub: userId,
      iat_ms: now,
      purpose: PURPOSE,
      cid: randomUUID(),
      exp_ms: now + PENDING_SIGN_IN_MS,
      rm: rememberMe,
    },
    { expiresIn: '10m' },
  );
}

export const SIGN_IN_EXPIRED = 'Your sign-in has expired. Please sign in again.';

/** The pending sign-in a token names; 401 when it is not one (forged, expired, an access token). */
export function openPendingToken(app: FastifyInstance, token: string): PendingSignIn {
  let claims: { sub?: unknown; purpose?: unknown; cid?: unknown; exp_ms?: unknown; rm?: unknown };
  try {
    claims = app.jwt.verify(token);
  } catch {
    throw new UnauthorizedError(SIGN_IN_EXPIRED);
  }
  const { sub, purpose, cid, exp_ms, rm } = claims;
  if (
    purpose !== PURPOSE ||
    typeof sub !== 'string' ||
    typeof cid !== 'string' ||
    typeof exp_ms !== 'number' ||
    exp_ms <= app.platform.clock().getTime()
  ) {
    throw new UnauthorizedError(SIGN_IN_EXPIRED);
  }
  return {
    userId: sub,
    challengeId: cid,
    expiresAt: new Date(exp_ms).toISOString(),
    rememberMe: rm === true,
  };
}
