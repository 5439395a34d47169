import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../shared/errors';
import type { Command, DomainEvent } from '../shared/messages';

/**
 * Issue 32: two-factor sign-in (TOTP, RFC 6238) and the sessions of a user, recorded in the user's
 * own stream. The domain does no crypto: the API opens the sealed secret, checks a code and passes
 * the RFC 6238 time step it matched (`step`), or the keyed hash of a recovery code (`codeHash`).
 * The TOTP secret enters the log only sealed (AES-256-GCM under a key from configuration), and
 * recovery codes only as keyed hashes; the history read model leaves both out.
 */

export const TWO_FACTOR_MESSAGES = {
  invalidCode: 'Invalid authentication code',
  alreadyEnabled: 'Two-factor sign-in is already on',
  notEnabled: 'Two-factor sign-in is not on',
  noSetup: 'Start the two-factor setup first',
  signInExpired: 'Your sign-in has expired. Please sign in again.',
  passwordIncorrect: 'Password is incorrect',
  sessionNotFound: 'Session not found',
} as const;

/** How many one-time recovery codes an enrolment (or a regeneration) gives. */
export const RECOVERY_CODE_COUNT = 10;

/** What a sign-in records about the client (parsed from its user agent by the API). */
export type SessionClient = Readonly<{ browser: string; os: string; address: string }>;

export type TwoFactorSetupStarted = DomainEvent<
  'TwoFactorSetupStarted',
  Readonly<{ userId: string; sealedSecret: string; startedAt: string }>
>;
/** `step`: the time step of the confirming code (used, so it cannot be used again). */
export type TwoFactorEnabled = DomainEvent<
  'TwoFactorEnabled',
  Readonly<{ userId: string; recoveryCodeHashes: readonly string[]; step: number; enabledAt: string }>
>;
export type TwoFactorDisabled = DomainEvent<
  'TwoFactorDisabled',
  Readonly<{ userId: string; disabledAt: string }>
>;
/**
 * Two-factor sign-in turned off by an operator (`npm run reset-two-factor`) for a user who lost
 * both the authenticator and the recovery codes, after checking who they are out of band. `email`:
 * where the owner is told; `operator` and `reason`: what the operator typed, kept for the audit.
 */
export type TwoFactorReset = DomainEvent<
  'TwoFactorReset',
  Readonly<{ userId: string; email: string; operator: string; reason: string; resetAt: string }>
>;
export type RecoveryCodesRegenerated = DomainEvent<
  'RecoveryCodesRegenerated',
  Readonly<{ userId: string; recoveryCodeHashes: readonly string[]; step: number; regeneratedAt: string }>
>;
/**
 * A second step of a sign-in passed: the TOTP `step` or the recovery code `codeHash` is spent, and
 * so is the sign-in's pending token (`challengeId`, alive until `challengeExpiresAt`).
 */
export type TwoFactorCodeUsed = DomainEvent<
  'TwoFactorCodeUsed',
  Readonly<{
    userId: string;
    method: 'totp' | 'recovery';
    step: number | null;
    codeHash: string | null;
    challengeId: string;
    challengeExpiresAt: string;
    usedAt: string;
  }>
>;
/**
 * A sign-in: a fresh server-made session id. `newBrowser`: the account has signed in before, but
 * never from this browser and system (the owner is mailed at `email`).
 */
export type SessionStarted = DomainEvent<
  'SessionStarted',
  SessionClient &
    Readonly<{
      userId: string;
      sessionId: string;
      email: string;
      newBrowser: boolean;
      startedAt: string;
      expiresAt: string;
    }>
>;
/** `signed-out`: the session's own logout; `ended`: ended from another session (or all others). */
export type SessionEnded = DomainEvent<
  'SessionEnded',
  Readonly<{ userId: string; sessionId: string; reason: 'signed-out' | 'ended'; endedAt: string }>
>;

export type UserSecurityEvent =
  | TwoFactorSetupStarted
  | TwoFactorEnabled
  | TwoFactorDisabled
  | TwoFactorReset
  | RecoveryCodesRegenerated
  | TwoFactorCodeUsed
  | SessionStarted
  | SessionEnded;

export const USER_SECURITY_EVENT_TYPES = [
  'TwoFactorSetupStarted',
  'TwoFactorEnabled',
  'TwoFactorDisabled',
  'TwoFactorReset',
  'RecoveryCodesRegenerated',
  'TwoFactorCodeUsed',
  'SessionStarted',
  'SessionEnded',
] as const satisfies readonly UserSecurityEvent['type'][];

export type LiveSession = Readonly<{ sessionId: string; startedAt: string; expiresAt: string }>;

export type UserSecurity = Readonly<{
  /** The sealed secret of a setup not yet confirmed. */
  pendingSecret: string | null;
  twoFactor: Readonly<{
    sealedSecret: string;
    /** The last TOTP time step used: a code of this step or an earlier one is refused. */
    lastStep: number;
    /** Keyed hashes of the recovery codes not yet used. */
    recoveryCodeHashes: readonly string[];
  }> | null;
  /** Pending sign-in tokens already spent, kept until they expire anyway. */
  spentChallenges: readonly Readonly<{ id: string; expiresAt: string }>[];
  /** Sessions not ended (some may have expired: see `liveSessions`). */
  sessions: readonly LiveSession[];
  /** `browser|os` of every client the account has signed in from. */
  knownClients: readonly string[];
}>;

export const initialUserSecurity = (): UserSecurity => ({
  pendingSecret: null,
  twoFactor: null,
  spentChallenges: [],
  sessions: [],
  knownClients: [],
});

const isAfter = (a: string, b: string) => Date.parse(a) > Date.parse(b);

export const clientKey = (client: Pick<SessionClient, 'browser' | 'os'>) => `${client.browser}|${client.os}`;

/** Sessions not ended and not expired at `now`. */
export const liveSessions = (security: UserSecurity, now: string): LiveSession[] =>
  security.sessions.filter((s) => isAfter(s.expiresAt, now));

/** Every session ends (a password reset; a change keeps `keep`). */
export const endSessionsBut = (security: UserSecurity, keep: string | null): UserSecurity => ({
  ...security,
  sessions: security.sessions.filter((s) => s.sessionId === keep),
});

export function evolveUserSecurity(security: UserSecurity, event: UserSecurityEvent): UserSecurity {
  switch (event.type) {
    case 'TwoFactorSetupStarted':
      return { ...security, pendingSecret: event.data.sealedSecret };
    case 'TwoFactorEnabled':
      return {
        ...security,
        pendingSecret: null,
        twoFactor: {
          sealedSecret: security.pendingSecret ?? '',
          lastStep: event.data.step,
          recoveryCodeHashes: event.data.recoveryCodeHashes,
        },
      };
    case 'TwoFactorDisabled':
    case 'TwoFactorReset':
      return { ...security, pendingSecret: null, twoFactor: null };
    case 'RecoveryCodesRegenerated':
      if (!security.twoFactor) return security;
      return {
        ...security,
        twoFactor: {
          ...security.twoFactor,
          lastStep: Math.max(security.twoFactor.lastStep, event.data.step),
          recoveryCodeHashes: event.data.recoveryCodeHashes,
        },
      };
    case 'TwoFactorCodeUsed': {
      const { step, codeHash, challengeId, challengeExpiresAt, usedAt } = event.data;
      const spentChallenges = [
        ...security.spentChallenges.filter((c) => isAfter(c.expiresAt, usedAt)),
        { id: challengeId, expiresAt: challengeExpiresAt },
      ];
      if (!security.twoFactor) return { ...security, spentChallenges };
      const { lastStep, recoveryCodeHashes } = security.twoFactor;
      return {
        ...security,
        spentChallenges,
        twoFactor: {
          ...security.twoFactor,
          lastStep: step === null ? lastStep : Math.max(lastStep, step),
          recoveryCodeHashes: recoveryCodeHashes.filter((h) => h !== codeHash),
        },
      };
    }
    case 'SessionStarted': {
      const { sessionId, startedAt, expiresAt } = event.data;
      const key = clientKey(event.data);
      return {
        ...security,
        // Expired sessions are dropped as new ones come, so the state stays small.
        sessions: [
          ...security.sessions.filter((s) => isAfter(s.expiresAt, startedAt)),
          { sessionId, startedAt, expiresAt },
        ],
        knownClients: security.knownClients.includes(key)
          ? security.knownClients
          : [...security.knownClients, key],
      };
    }
    case 'SessionEnded':
      return {
        ...security,
        sessions: security.sessions.filter((s) => s.sessionId !== event.data.sessionId),
      };
  }
}

/** A code the API checked: the TOTP step it matched, a recovery code's keyed hash, or neither. */
export type CodeProof =
  | Readonly<{ kind: 'totp'; step: number | null }>
  | Readonly<{ kind: 'recovery'; codeHash: string }>;

/** A sign-in about to start: the API makes the id (never the client) and reads the client. */
export type NewSession = SessionClient & Readonly<{ sessionId: string; expiresAt: string }>;

export type StartTwoFactorSetup = Command<
  'StartTwoFactorSetup',
  Readonly<{ sealedSecret: string; now: string }>
>;
export type ConfirmTwoFactor = Command<
  'ConfirmTwoFactor',
  Readonly<{ step: number | null; recoveryCodeHashes: readonly string[]; now: string }>
>;
export type DisableTwoFactor = Command<
  'DisableTwoFactor',
  Readonly<{ passwordMatches: boolean; proof: CodeProof; now: string }>
>;
/** An operator's reset (no password, no code: the operator checked the owner out of band). */
export type ResetTwoFactor = Command<
  'ResetTwoFactor',
  Readonly<{ operator: string; reason: string; now: string }>
>;
export type RegenerateRecoveryCodes = Command<
  'RegenerateRecoveryCodes',
  Readonly<{ step: number | null; recoveryCodeHashes: readonly string[]; now: string }>
>;
/** The second step of a sign-in; `challengeId`/`challengeExpiresAt` come from the pending token. */
export type CompleteTwoFactorSignIn = Command<
  'CompleteTwoFactorSignIn',
  Readonly<{
    challengeId: string;
    challengeExpiresAt: string;
    proof: CodeProof;
    session: NewSession;
    now: string;
  }>
>;
/** A sign-in without a second step (password without two-factor on; a verified e-mail link). */
export type StartSession = Command<'StartSession', Readonly<{ session: NewSession; now: string }>>;
export type EndSession = Command<
  'EndSession',
  Readonly<{ sessionId: string; reason: 'signed-out' | 'ended'; now: string }>
>;
export type EndOtherSessions = Command<'EndOtherSessions', Readonly<{ keepSessionId: string; now: string }>>;

export type UserSecurityCommand =
  | StartTwoFactorSetup
  | ConfirmTwoFactor
  | DisableTwoFactor
  | ResetTwoFactor
  | RegenerateRecoveryCodes
  | CompleteTwoFactorSignIn
  | StartSession
  | EndSession
  | EndOtherSessions;

export const USER_SECURITY_COMMAND_TYPES = [
  'StartTwoFactorSetup',
  'ConfirmTwoFactor',
  'DisableTwoFactor',
  'ResetTwoFactor',
  'RegenerateRecoveryCodes',
  'CompleteTwoFactorSignIn',
  'StartSession',
  'EndSession',
  'EndOtherSessions',
] as const satisfies readonly UserSecurityCommand['type'][];

const badCode = () => new ValidationError([{ field: 'code', message: TWO_FACTOR_MESSAGES.invalidCode }]);

type Subject = Readonly<{ userId: string; email: string; security: UserSecurity }>;

/** Whether `proof` is a good code for `twoFactor` now: a fresh TOTP step or an unused recovery code. */
function accepts(twoFactor: NonNullable<UserSecurity['twoFactor']>, proof: CodeProof): boolean {
  if (proof.kind === 'totp') return proof.step !== null && proof.step > twoFactor.lastStep;
  return twoFactor.recoveryCodeHashes.includes(proof.codeHash);
}

function sessionStarted(user: Subject, session: NewSession, now: string): SessionStarted {
  const key = clientKey(session);
  const { knownClients } = user.security;
  return {
    type: 'SessionStarted',
    data: {
      userId: user.userId,
      sessionId: session.sessionId,
      email: user.email,
      browser: session.browser,
      os: session.os,
      address: session.address,
      newBrowser: knownClients.length > 0 && !knownClients.includes(key),
      startedAt: now,
      expiresAt: session.expiresAt,
    },
  };
}

export function decideUserSecurity(command: UserSecurityCommand, user: Subject): UserSecurityEvent[] {
  const { userId, security } = user;
  const { twoFactor } = security;
  switch (command.type) {
    case 'StartTwoFactorSetup': {
      if (twoFactor) throw new ConflictError(TWO_FACTOR_MESSAGES.alreadyEnabled, 'TWO_FACTOR_ENABLED');
      const { sealedSecret, now } = command.data;
      return [{ type: 'TwoFactorSetupStarted', data: { userId, sealedSecret, startedAt: now } }];
    }
    case 'ConfirmTwoFactor': {
      if (twoFactor) throw new ConflictError(TWO_FACTOR_MESSAGES.alreadyEnabled, 'TWO_FACTOR_ENABLED');
      if (!security.pendingSecret)
        throw new ConflictError(TWO_FACTOR_MESSAGES.noSetup, 'TWO_FACTOR_NO_SETUP');
      const { step, recoveryCodeHashes, now } = command.data;
      if (step === null) throw badCode();
      return [{ type: 'TwoFactorEnabled', data: { userId, recoveryCodeHashes, step, enabledAt: now } }];
    }
    case 'DisableTwoFactor': {
      if (!twoFactor) throw new ConflictError(TWO_FACTOR_MESSAGES.notEnabled, 'TWO_FACTOR_NOT_ENABLED');
      const { passwordMatches, proof, now } = command.data;
      if (!passwordMatches) {
        throw new ValidationError([{ field: 'password', message: TWO_FACTOR_MESSAGES.passwordIncorrect }]);
      }
      if (!accepts(twoFactor, proof)) throw badCode();
      return [{ type: 'TwoFactorDisabled', data: { userId, disabledAt: now } }];
    }
    case 'ResetTwoFactor': {
      if (!twoFactor) throw new ConflictError(TWO_FACTOR_MESSAGES.notEnabled, 'TWO_FACTOR_NOT_ENABLED');
      const { operator, reason, now } = command.data;
      const missing = [
        ...(operator.trim() === '' ? [{ field: 'operator', message: 'Operator is required' }] : []),
        ...(reason.trim() === '' ? [{ field: 'reason', message: 'Reason is required' }] : []),
      ];
      if (missing.length > 0) throw new ValidationError(missing);
      // Whoever holds a session may be the one who took the phone: every session ends with it.
      return [
        {
          type: 'TwoFactorReset',
          data: { userId, email: user.email, operator: operator.trim(), reason: reason.trim(), resetAt: now },
        },
        ...liveSessions(security, now).map((s) => ({
          type: 'SessionEnded' as const,
          data: { userId, sessionId: s.sessionId, reason: 'ended' as const, endedAt: now },
        })),
      ];
    }
    case 'RegenerateRecoveryCodes': {
      if (!twoFactor) throw new ConflictError(TWO_FACTOR_MESSAGES.notEnabled, 'TWO_FACTOR_NOT_ENABLED');
      const { step, recoveryCodeHashes, now } = command.data;
      if (step === null || step <= twoFactor.lastStep) throw badCode();
      return [
        { type: 'RecoveryCodesRegenerated', data: { userId, recoveryCodeHashes, step, regeneratedAt: now } },
      ];
    }
    case 'CompleteTwoFactorSignIn': {
      const { challengeId, challengeExpiresAt, proof, session, now } = command.data;
      const spent = security.spentChallenges.some((c) => c.id === challengeId);
      if (!twoFactor || spent || !isAfter(challengeExpiresAt, now)) {
        throw new UnauthorizedError(TWO_FACTOR_MESSAGES.signInExpired);
      }
      if (!accepts(twoFactor, proof)) throw new UnauthorizedError(TWO_FACTOR_MESSAGES.invalidCode);
      return [
        {
          type: 'TwoFactorCodeUsed',
          data: {
            userId,
            method: proof.kind,
            step: proof.kind === 'totp' ? proof.step : null,
            codeHash: proof.kind === 'recovery' ? proof.codeHash : null,
            challengeId,
            challengeExpiresAt,
            usedAt: now,
          },
        },
        sessionStarted(user, session, now),
      ];
    }
    case 'StartSession':
      return [sessionStarted(user, command.data.session, command.data.now)];
    case 'EndSession': {
      const { sessionId, reason, now } = command.data;
      // Another user's session is not in this stream: the same 404 as a missing one.
      if (!liveSessions(security, now).some((s) => s.sessionId === sessionId)) {
        throw new NotFoundError(TWO_FACTOR_MESSAGES.sessionNotFound);
      }
      return [{ type: 'SessionEnded', data: { userId, sessionId, reason, endedAt: now } }];
    }
    case 'EndOtherSessions': {
      const { keepSessionId, now } = command.data;
      return liveSessions(security, now)
        .filter((s) => s.sessionId !== keepSessionId)
        .map((s) => ({
          type: 'SessionEnded' as const,
          data: { userId, sessionId: s.sessionId, reason: 'ended' as const, endedAt: now },
        }));
    }
  }
}
