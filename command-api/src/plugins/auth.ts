import fastifyJwt from '@fastify/jwt';
import { UnauthorizedError, userDecider, userStreamId } from '@kosh/domain';
import { getSessionSubject, getTokenSubject, touchSession } from '@kosh/projections';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { loadAggregate } from '../commands/handle';
import { requestTags, tagOf } from '../reads/checkpoint-tags';
import { lruMap } from '../support/lru-map';

/** Token subjects kept in memory (one small entry per signed-in user seen recently). */
const SUBJECTS_KEPT = 50_000;

/**
 * Claims of our access tokens: `sub` is the user id; `iat`/`exp` are set by @fastify/jwt.
 * `iat_ms` is the issue instant in milliseconds from the platform clock: `iat` has whole seconds
 * only, too coarse to tell a token issued just before a password change from one just after.
 */
export type AccessTokenClaims = {
  sub: string;
  iat: number;
  exp: number;
  iat_ms?: number;
  /** The session (issue 32): a token of an ended session, or without one, is refused. */
  sid?: string;
  /** Set on a sign-in's pending token (two-factor): never an access token. */
  purpose?: string;
};

/**
 * Verified bearer tokens kept in memory, by their exact text (header, claims and signature): a
 * signed-in user's next request skips the signature check and the decoding (about 0.16 ms of
 * CPU a request, a tenth of a write's node CPU, in `npm run bench:writes`'s profile). Only tokens
 * that verified are kept, so a changed byte is verified again (and refused); expiry is checked on
 * every request; the user, session and revocation checks below run on every request as before.
 */
const TOKENS_KEPT = 10_000;

/** The token of an `Authorization: Bearer <token>` header (the only place tokens are read). */
function bearerToken(header: string | undefined): string | null {
  if (!header || header.length < 8) return null;
  const space = header.indexOf(' ');
  if (space !== 6 || header.slice(0, 6).toLowerCase() !== 'bearer') return null;
  const token = header.slice(7);
  return token.length > 0 && !token.includes(' ') ? token : null;
}

/** How often a session's "last seen" is written at most. */
export const LAST_SEEN_EVERY_MS = 60_000;

/** A further check of a verified token (e.g. issued before a password change); throws to reject. */
export type TokenCheck = (claims: AccessTokenClaims, request: FastifyRequest) => Promise<void>;

/**
 * Runs once `request.userId` is the signed-in user; may point it at another account the user may
 * act on (an auditor's grant, plugins/audit-access.ts) or throw to refuse.
 */
export type AccountResolver = (request: FastifyRequest) => Promise<void>;

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: {
      sub: string;
      iat_ms: number;
      sid?: string;
      purpose?: string;
      cid?: string;
      exp_ms?: number;
      rm?: boolean;
    };
    user: AccessTokenClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** `onRequest` hook for protected routes: 401 unless a valid bearer token; sets `request.userId`. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** Signs an access token of a session (`sessionId`); `rememberMe` gives 30 days instead of 1. */
    issueToken: (userId: string, options: { rememberMe?: boolean; sessionId: string }) => string;
    addTokenCheck: (check: TokenCheck) => void;
    addAccountResolver: (resolver: AccountResolver) => void;
  }
  interface FastifyContextConfig {
    /**
     * Starts the route's reads for the token's user once the token's signature and claims hold,
     * before the user and session checks (which then share its round trip: readAheadWithTags in
     * reads/checkpoint-tags.ts). What it reads is the route's to use only after every check passed.
     */
    readAhead?: (request: FastifyRequest, userId: string) => void;
  }
  interface FastifyRequest {
    userId: string;
    /** The signed-in session (its token's `sid`); '' when not signed in. */
    sessionId: string;
  }
}

export const authPlugin = fp(
  async (app: FastifyInstance, opts: { secret: string }) => {
    await app.register(fastifyJwt, { secret: opts.secret });
    const checks: TokenCheck[] = [];
    const resolvers: AccountResolver[] = [];
    app.decorateRequest('userId', '');
    app.decorateRequest('sessionId', '');
    app.decorate('addTokenCheck', (check: TokenCheck) => {
      checks.push(check);
    });
    app.decorate('addAccountResolver', (resolver: AccountResolver) => {
      resolvers.push(resolver);
    });
    app.decorate('issueToken', (userId: string, options: { rememberMe?: boolean; sessionId: string }) =>
      app.jwt.sign(
        { sub: userId, iat_ms: app.platform.clock().getTime(), sid: options.sessionId },
        { expiresIn: options.rememberMe ? '30d' : '1d' },
      ),
    );
    type Subject = { tokensValidAfter: Date | null };
    app.decorateRequest('checkpointTagsRead', null);
    const tags = (request: FastifyRequest, userId: string) => requestTags(app.platform.db, request, userId);
    const subjects = lruMap<{ tag: string; subject: Subject }>(SUBJECTS_KEPT);
    /**
     * The token's user, if registered: a users read-model lookup, kept while the user's change
     * count of the users read model holds (a password change moves it before its answer, so the
     * next request reads the new row): a request then costs only its share of the counts' read,
     * which the session check and the answer cache share (one read per request).
     * Only when the row is missing (an unknown subject, or a read model still behind the write
     * that created the user) is the user's stream read, the source of truth; that is never kept.
     */
    async function tokenSubject(request: FastifyRequest, userId: string): Promise<Subject | null> {
      // The tag before the row, as in answer-cache.ts: a row older than its tag cannot be kept.
      const tag = tagOf(await tags(request, userId), ['users']);
      const kept = subjects.get(userId);
      if (kept?.tag === tag) return kept.subject;
      const row = await getTokenSubject(app.platform.db, userId);
      if (row) {
        subjects.set(userId, { tag, subject: row });
        return row;
      }
      const { state } = await loadAggregate(app.platform, userStreamId(userId), userDecider);
      if (state.status !== 'registered') return null;
      return { tokensValidAfter: state.tokensValidAfter ? new Date(state.tokensValidAfter) : null };
    }

    type SessionSubject = { userId: string; ended: boolean; expiresAt: Date };
    const sessionSubjects = lruMap<{ tag: string; subject: SessionSubject }>(SUBJECTS_KEPT);
    /**
     * The token's session, as `tokenSubject` reads the user: the read model, else the stream.
     * Kept while the user's count of the sessions read model holds: a sign-out or a session
     * ended elsewhere moves it in the batch that ends the row, and every request reads the
     * counts afresh (in a run started after it arrived), so an ended session is refused by the
     * next request to any process once the read model holds the end (the sign-out answers
     * after that). No time-based cache: nothing is trusted longer than the counts say.
     */
    async function sessionSubject(
      request: FastifyRequest,
      userId: string,
      sessionId: string,
    ): Promise<SessionSubject | null> {
      const tag = tagOf(await tags(request, userId), ['sessions']);
      const kept = sessionSubjects.get(sessionId);
      if (kept?.tag === tag) return kept.subject;
      const row = await getSessionSubject(app.platform.db, sessionId);
      if (row) {
        sessionSubjects.set(sessionId, { tag, subject: row });
        return row;
      }
      const { state } = await loadAggregate(app.platform, userStreamId(userId), userDecider);
      if (state.status !== 'registered') return null;
      const live = state.security.sessions.find((s) => s.sessionId === sessionId);
      return live ? { userId, ended: false, expiresAt: new Date(live.expiresAt) } : null;
    }
    const lastTouched = lruMap<number>(SUBJECTS_KEPT);
    const verifiedTokens = lruMap<AccessTokenClaims>(TOKENS_KEPT);
    /** "Last seen", written at most once a minute per session (per process; the SQL checks too). */
    async function touch(sessionId: string, now: number): Promise<void> {
      const last = lastTouched.get(sessionId);
      if (last !== undefined && now - last < LAST_SEEN_EVERY_MS) return;
      lastTouched.set(sessionId, now);
      await touchSession(app.platform.db, sessionId, new Date(now)).catch((error: unknown) => {
        app.log.warn({ err: error }, 'session last seen not recorded');
      });
    }

    app.decorate('authenticate', async (request: FastifyRequest) => {
      let claims: AccessTokenClaims;
      const token = bearerToken(request.headers.authorization);
      const known = token === null ? undefined : verifiedTokens.get(token);
      // fast-jwt's own expiry check: the wall clock, exp in whole seconds, no tolerance.
      if (known && typeof known.exp === 'number' && known.exp * 1000 > Date.now()) {
        claims = known;
      } else {
        try {
          claims = await request.jwtVerify<AccessTokenClaims>();
        } catch {
          throw new UnauthorizedError('Invalid or expired session. Please sign in again.');
        }
        if (token !== null) verifiedTokens.set(token, claims);
      }
      // A token that never expires, or names nobody, is not a session (whoever signed it).
      if (
        typeof claims.sub !== 'string' ||
        claims.sub.length === 0 ||
        typeof claims.exp !== 'number' ||
        typeof claims.iat !== 'number' ||
        typeof claims.sid !== 'string' ||
        claims.purpose !== undefined
      ) {
        throw new UnauthorizedError('Invalid or expired session. Please sign in again.');
      }
      request.routeOptions.config.readAhead?.(request, claims.sub);
      const subject = await tokenSubject(request, claims.sub);
      // A password change or reset voids every token issued before it.
      const issuedAt = claims.iat_ms ?? claims.iat * 1000;
      if (!subject || (subject.tokensValidAfter && issuedAt < subject.tokensValidAfter.getTime())) {
        throw new UnauthorizedError('Invalid or expired session. Please sign in again.');
      }
      const now = app.platform.clock().getTime();
      const session = await sessionSubject(request, claims.sub, claims.sid);
      if (!session || session.userId !== claims.sub || session.ended || session.expiresAt.getTime() <= now) {
        throw new UnauthorizedError('Invalid or expired session. Please sign in again.');
      }
      for (const check of checks) await check(claims, request);
      await touch(claims.sid, now);
      request.userId = claims.sub;
      request.sessionId = claims.sid;
      for (const resolve of resolvers) await resolve(request);
    });
  },
  { name: 'auth', dependencies: ['errors'] },
);
