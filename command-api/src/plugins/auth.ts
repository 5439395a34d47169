import fastifyJwt from '@fastify/jwt';
import { UnauthorizedError } from '@kosh/domain';
import { getTokensValidAfter } from '@kosh/projections/users/queries';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Claims of our access tokens: `sub` is the user id; `iat`/`exp` are set by @fastify/jwt.
 * `iat_ms` is the issue instant in milliseconds from the platform clock: `iat` has whole seconds
 * only, too coarse to tell a token issued just before a password change from one just after.
 */
export type AccessTokenClaims = { sub: string; iat: number; exp: number; iat_ms?: number };

/** A further check of a verified token (e.g. issued before a password change); throws to reject. */
export type TokenCheck = (claims: AccessTokenClaims, request: FastifyRequest) => Promise<void>;

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; iat_ms: number };
    user: AccessTokenClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** `onRequest` hook for protected routes: 401 unless a valid bearer token; sets `request.userId`. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** Signs an access token for a user; `rememberMe` gives 30 days instead of 1. */
    issueToken: (userId: string, options?: { rememberMe?: boolean }) => string;
    addTokenCheck: (check: TokenCheck) => void;
  }
  interface FastifyRequest {
    userId: string;
  }
}

export const authPlugin = fp(
  async (app: FastifyInstance, opts: { secret: string }) => {
    await app.register(fastifyJwt, { secret: opts.secret });
    const checks: TokenCheck[] = [];
    app.decorateRequest('userId', '');
    app.decorate('addTokenCheck', (check: TokenCheck) => {
      checks.push(check);
    });
    app.decorate('issueToken', (userId: string, options?: { rememberMe?: boolean }) =>
      app.jwt.sign(
        { sub: userId, iat_ms: app.platform.clock().getTime() },
        { expiresIn: options?.rememberMe ? '30d' : '1d' },
      ),
    );
    app.decorate('authenticate', async (request: FastifyRequest) => {
      let claims: AccessTokenClaims;
      try {
        claims = await request.jwtVerify<AccessTokenClaims>();
      } catch {
        throw new UnauthorizedError('Invalid or expired session. Please sign in again.');
      }
      if (typeof claims.sub !== 'string' || claims.sub.length === 0) {
        throw new UnauthorizedError('Invalid or expired session. Please sign in again.');
      }
      // A password change or reset voids every token issued before it (users read model).
      const validAfter = await getTokensValidAfter(app.platform.db, claims.sub);
      const issuedAt = claims.iat_ms ?? claims.iat * 1000;
      if (validAfter && issuedAt < validAfter.getTime()) {
        throw new UnauthorizedError('Invalid or expired session. Please sign in again.');
      }
      for (const check of checks) await check(claims, request);
      request.userId = claims.sub;
    });
  },
  { name: 'auth', dependencies: ['errors'] },
);
