import { type Static, Type } from 'typebox';
import { WireUser } from './auth';
import { success } from './envelope';

/**
 * Issue 32: two-factor sign-in and sessions, wire names in snake_case. As in auth.ts, body fields
 * are optional at the schema level so that a missing one gets its own message (422 per field).
 */
const Code = Type.String({ maxLength: 64 });
const Password = Type.String({ maxLength: 256 });

/** A sign-in answers a session, or (two-factor on) a pending token for the second step. */
export const TwoFactorChallenge = Type.Object({
  two_factor_required: Type.Literal(true),
  /** Single-use, valid 5 minutes; no session yet. */
  pending_token: Type.String(),
});
export type TwoFactorChallenge = Static<typeof TwoFactorChallenge>;
export const LoginResponse = success(
  Type.Union([Type.Object({ user: WireUser, token: Type.String() }), TwoFactorChallenge]),
);
export type LoginResponse = Static<typeof LoginResponse>;

export const LoginTwoFactorBody = Type.Object({
  pending_token: Type.Optional(Type.String({ maxLength: 2000 })),
  /** The 6-digit code, or a recovery code (`xxxxx-xxxxx`). */
  code: Type.Optional(Code),
});
export type LoginTwoFactorBody = Static<typeof LoginTwoFactorBody>;

export const TwoFactorSetupResponse = success(
  Type.Object({
    /** Base32, for typing into an app that cannot scan. */
    secret: Type.String(),
    otpauth_uri: Type.String(),
    /** The QR code of `otpauth_uri`, an SVG data URL. */
    qr_code: Type.String(),
  }),
);
export type TwoFactorSetupResponse = Static<typeof TwoFactorSetupResponse>;

export const TwoFactorCodeBody = Type.Object({ code: Type.Optional(Code) });
export type TwoFactorCodeBody = Static<typeof TwoFactorCodeBody>;

export const TwoFactorDisableBody = Type.Object({
  password: Type.Optional(Password),
  code: Type.Optional(Code),
});
export type TwoFactorDisableBody = Static<typeof TwoFactorDisableBody>;

/** Shown once: only their keyed hashes are kept. */
export const RecoveryCodesResponse = success(Type.Object({ recovery_codes: Type.Array(Type.String()) }));
export type RecoveryCodesResponse = Static<typeof RecoveryCodesResponse>;

export const TwoFactorStatusResponse = success(
  Type.Object({ enabled: Type.Boolean(), recovery_codes_left: Type.Integer() }),
);
export type TwoFactorStatusResponse = Static<typeof TwoFactorStatusResponse>;

export const WireSession = Type.Object({
  id: Type.String(),
  browser: Type.String(),
  os: Type.String(),
  address: Type.String(),
  started_at: Type.String(),
  last_seen_at: Type.String(),
  /** The session of the request. */
  current: Type.Boolean(),
});
export type WireSession = Static<typeof WireSession>;
export const SessionsResponse = success(Type.Object({ sessions: Type.Array(WireSession) }));
export type SessionsResponse = Static<typeof SessionsResponse>;

export const EndSessionsQuery = Type.Object({ others: Type.Optional(Type.String({ maxLength: 10 })) });
export type EndSessionsQuery = Static<typeof EndSessionsQuery>;
