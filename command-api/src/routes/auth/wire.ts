import type { WireUser } from '@kosh/contract';
import {
  EMAIL_FIELDS,
  type FieldError,
  NotFoundError,
  normalizeEmail,
  PROFILE_FIELDS,
  type ProfileNames,
  USER_MESSAGES,
  type UserState,
  ValidationError,
  validateForgotPassword,
  wireOf,
} from '@kosh/domain';
import { wireFieldErrors } from '../../commands/route';

/** A missing text field reads as empty: the rules then answer "required". */
export const str = (value: string | undefined) => value ?? '';

/** A 422 naming the fields the client sent (first_name), when a rule failed. */
export function failOn(errors: FieldError[]): void {
  if (errors.length > 0) throw new ValidationError(wireFieldErrors(errors));
}

/** The address a "mail me a link" request names: checked (422), then normalized. */
export function linkAddress(value: string | undefined): string {
  const email = str(value);
  failOn(validateForgotPassword({ email }));
  return normalizeEmail(email);
}

type UserView = ProfileNames & {
  userId: string;
  email: string;
  emailVerified: boolean;
  profilePicture: string | null;
  createdAt: string;
};

export function toWireUser(user: UserView): WireUser {
  return {
    id: user.userId,
    ...wireOf(PROFILE_FIELDS, user),
    ...wireOf(EMAIL_FIELDS, user),
    email_verified: user.emailVerified,
    profile_picture: user.profilePicture,
    created_at: user.createdAt,
  };
}

export function registeredOrNotFound(state: UserState) {
  if (state.status !== 'registered') throw new NotFoundError(USER_MESSAGES.userNotFound);
  return state;
}
