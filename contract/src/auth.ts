import type { EMAIL_FIELDS, PROFILE_FIELDS, WireNames, WireOf } from '@kosh/domain';
import { type Static, Type } from 'typebox';
import { success } from './envelope';

/**
 * Spec section 7 (Auth), wire names in snake_case. Body fields are optional at the schema level
 * so that a missing field gets the spec's own message (domain/src/validation/auth.ts) rather than
 * a generic one; the schema only bounds types and lengths.
 */
const Name = Type.String({ maxLength: 100 });
const Email = Type.String({ maxLength: 254 });
/** argon2 hashes any length; the cap keeps a single request cheap. */
const Password = Type.String({ maxLength: 256 });
const LinkToken = Type.String({ maxLength: 200 });

export const ProfileBody = Type.Object({
  first_name: Type.Optional(Name),
  last_name: Type.Optional(Name),
  email: Type.Optional(Email),
});
export type ProfileBody = Static<typeof ProfileBody>;
// Every declared profile field is taken in (PROFILE_FIELDS, EMAIL_FIELDS): one missing here does not compile.
ProfileBody.properties satisfies Record<
  WireNames<typeof PROFILE_FIELDS> | WireNames<typeof EMAIL_FIELDS>,
  unknown
>;

/** The profile's fields and the first password. */
export const RegisterBody = Type.Object({ ...ProfileBody.properties, password: Type.Optional(Password) });
export type RegisterBody = Static<typeof RegisterBody>;

export const LoginBody = Type.Object({
  email: Type.Optional(Email),
  password: Type.Optional(Password),
  remember_me: Type.Optional(Type.Boolean()),
});
export type LoginBody = Static<typeof LoginBody>;

export const EmailBody = Type.Object({ email: Type.Optional(Email) });
export type EmailBody = Static<typeof EmailBody>;

export const VerifyEmailBody = Type.Object({ token: Type.Optional(LinkToken) });
export type VerifyEmailBody = Static<typeof VerifyEmailBody>;

export const ResetPasswordBody = Type.Object({
  token: Type.Optional(LinkToken),
  password: Type.Optional(Password),
});
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;

export const ChangePasswordBody = Type.Object({
  current_password: Type.Optional(Password),
  new_password: Type.Optional(Password),
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

/** The user object on the wire. `profile_picture` is the file name under /uploads/profile-pictures/. */
export const WireUser = Type.Object({
  id: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  email_verified: Type.Boolean(),
  profile_picture: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});
export type WireUser = Static<typeof WireUser>;
// Every declared profile field is answered, with the type the domain holds.
({}) as WireOf<typeof PROFILE_FIELDS> & WireOf<typeof EMAIL_FIELDS> satisfies Pick<
  WireUser,
  WireNames<typeof PROFILE_FIELDS> | WireNames<typeof EMAIL_FIELDS>
>;

export const UserResponse = success(Type.Object({ user: WireUser }));
export type UserResponse = Static<typeof UserResponse>;
export const SessionResponse = success(Type.Object({ user: WireUser, token: Type.String() }));
export type SessionResponse = Static<typeof SessionResponse>;
export const TokenResponse = success(Type.Object({ token: Type.String() }));
export type TokenResponse = Static<typeof TokenResponse>;
