/**
 * The spec's account rules (section 5) and their exact messages, shared by the API (422 errors)
 * and the web forms. Each function returns every failing field with its first message, in form
 * order; an empty list means valid. Field names are the camelCase form names; the API maps them
 * to the snake_case wire names.
 */
import type { FieldError } from '../shared/errors';

export const AUTH_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Enter a valid email',
  passwordRequired: 'Password is required',
  passwordMin: 'Password should be of minimum 6 characters length',
  passwordComplexity:
    'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  confirmPasswordRequired: 'Password confirmation is required',
  passwordsMustMatch: 'Passwords must match',
  firstNameRequired: 'First name is required',
  firstNameMin: 'First name should be at least 2 characters',
  lastNameRequired: 'Last name is required',
  lastNameMin: 'Last name should be at least 2 characters',
  currentPasswordRequired: 'Current password is required',
  newPasswordRequired: 'New password is required',
  newPasswordMin: 'Password must be at least 6 characters',
  confirmNewPasswordRequired: 'Please confirm your new password',
  passwordsDoNotMatch: 'Passwords do not match',
  pictureNotImage: 'Please select an image file',
  pictureTooLarge: 'Image size must be less than 5MB',
} as const;

/** Section 9: profile picture at most 5,242,880 bytes. */
export const PROFILE_PICTURE_MAX_BYTES = 5_242_880;
export const PASSWORD_MIN_LENGTH = 6;
export const NAME_MIN_LENGTH = 2;

/**
 * One mailbox, `local@domain`, as SMTP carries it without quoting: the local part is a dot-atom
 * (RFC 5321 atext, no leading, trailing or double dot), the domain is two or more DNS labels
 * ending in a letter label. No display name, no comma list, no quoted local part, no CR/LF or
 * other control or non-ASCII character: what passes is exactly the address the mail goes to.
 */
const EMAIL_PATTERN =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
/** RFC 5321 limits: 64 octets of local part, 254 for the whole path. */
const EMAIL_MAX_LENGTH = 254;
const LOCAL_PART_MAX_LENGTH = 64;

type Maybe = string | null | undefined;
type Rule = (value: string) => string | null;

const isBlank = (value: Maybe): boolean => value === null || value === undefined || value.trim() === '';

/** The first message among `required` and `rules` for one field, or null. */
function check(value: Maybe, requiredMessage: string | null, rules: Rule[]): string | null {
  if (isBlank(value)) return requiredMessage;
  for (const rule of rules) {
    const message = rule(value as string);
    if (message) return message;
  }
  return null;
}

function collect(checks: Record<string, string | null>): FieldError[] {
  return Object.entries(checks).flatMap(([field, message]) => (message ? [{ field, message }] : []));
}

/** Only spaces around the address are forgiven (a pasted address); a line break never is. */
const trimSpaces = (value: string) => value.replace(/^ +| +$/g, '');

/** The address as identity and as mail recipient: spaces trimmed, lower-cased. Validate it first. */
export const normalizeEmail = (value: string): string => trimSpaces(value).toLowerCase();

export function isValidEmail(value: string): boolean {
  const address = trimSpaces(value);
  const at = address.lastIndexOf('@');
  return address.length <= EMAIL_MAX_LENGTH && at <= LOCAL_PART_MAX_LENGTH && EMAIL_PATTERN.test(address);
}

const email: Rule = (v) => (isValidEmail(v) ? null : AUTH_MESSAGES.emailInvalid);
const minLength =
  (min: number, message: string): Rule =>
  (v) =>
    v.trim().length >= min ? null : message;
const passwordMin: Rule = (v) => (v.length >= PASSWORD_MIN_LENGTH ? null : AUTH_MESSAGES.passwordMin);
const passwordComplexity: Rule = (v) =>
  /[A-Z]/.test(v) && /[a-z]/.test(v) && /\d/.test(v) ? null : AUTH_MESSAGES.passwordComplexity;

const checkEmail = (value: Maybe) => check(value, AUTH_MESSAGES.emailRequired, [email]);
/** Register's (and reset's) password rule: min 6 with an upper-case letter, a lower-case letter and a digit. */
const checkNewAccountPassword = (value: Maybe) =>
  check(value, AUTH_MESSAGES.passwordRequired, [passwordMin, passwordComplexity]);

export type LoginInput = { email?: Maybe; password?: Maybe };
export function validateLogin(input: LoginInput): FieldError[] {
  return collect({
    email: checkEmail(input.email),
    password: check(input.password, AUTH_MESSAGES.passwordRequired, [passwordMin]),
  });
}

/** What the register call sends (section 3: confirmPassword is dropped before sending). */
export type RegisterInput = { firstName?: Maybe; lastName?: Maybe; email?: Maybe; password?: Maybe };
export function validateRegister(input: RegisterInput): FieldError[] {
  return collect({
    firstName: check(input.firstName, AUTH_MESSAGES.firstNameRequired, [
      minLength(NAME_MIN_LENGTH, AUTH_MESSAGES.firstNameMin),
    ]),
    lastName: check(input.lastName, AUTH_MESSAGES.lastNameRequired, [
      minLength(NAME_MIN_LENGTH, AUTH_MESSAGES.lastNameMin),
    ]),
    email: checkEmail(input.email),
    password: checkNewAccountPassword(input.password),
  });
}

/** The register form, with its confirmation field. */
export type RegisterFormInput = RegisterInput & { confirmPassword?: Maybe };
export function validateRegisterForm(input: RegisterFormInput): FieldError[] {
  return [
    ...validateRegister(input),
    ...collect({ confirmPassword: checkConfirmation(input.password, input.confirmPassword) }),
  ];
}

function checkConfirmation(password: Maybe, confirmation: Maybe): string | null {
  if (isBlank(confirmation)) return AUTH_MESSAGES.confirmPasswordRequired;
  return confirmation === password ? null : AUTH_MESSAGES.passwordsMustMatch;
}

export type ForgotPasswordInput = { email?: Maybe };
export function validateForgotPassword(input: ForgotPasswordInput): FieldError[] {
  return collect({ email: checkEmail(input.email) });
}

/** The resend-verification call takes the same e-mail rule. */
export const validateResendVerification = validateForgotPassword;

/** Reset takes register's password rule. */
export type ResetPasswordInput = { password?: Maybe };
export function validateResetPassword(input: ResetPasswordInput): FieldError[] {
  return collect({ password: checkNewAccountPassword(input.password) });
}

export type ResetPasswordFormInput = ResetPasswordInput & { confirmPassword?: Maybe };
export function validateResetPasswordForm(input: ResetPasswordFormInput): FieldError[] {
  return [
    ...validateResetPassword(input),
    ...collect({ confirmPassword: checkConfirmation(input.password, input.confirmPassword) }),
  ];
}

/** What the change-password call sends. */
export type ChangePasswordInput = { currentPassword?: Maybe; newPassword?: Maybe };
export function validateChangePassword(input: ChangePasswordInput): FieldError[] {
  return collect({
    currentPassword: check(input.currentPassword, AUTH_MESSAGES.currentPasswordRequired, []),
    newPassword: check(input.newPassword, AUTH_MESSAGES.newPasswordRequired, [
      (v) => (v.length >= PASSWORD_MIN_LENGTH ? null : AUTH_MESSAGES.newPasswordMin),
    ]),
  });
}

/** The change-password form, with its confirmation field. */
export type ChangePasswordFormInput = ChangePasswordInput & { confirmPassword?: Maybe };
export function validateChangePasswordForm(input: ChangePasswordFormInput): FieldError[] {
  const confirmPassword = isBlank(input.confirmPassword)
    ? AUTH_MESSAGES.confirmNewPasswordRequired
    : input.confirmPassword === input.newPassword
      ? null
      : AUTH_MESSAGES.passwordsDoNotMatch;
  return [...validateChangePassword(input), ...collect({ confirmPassword })];
}

/** Profile: first name and e-mail required (section 5); last name optional. */
export type ProfileInput = { firstName?: Maybe; lastName?: Maybe; email?: Maybe };
export function validateProfile(input: ProfileInput): FieldError[] {
  return collect({
    firstName: check(input.firstName, AUTH_MESSAGES.firstNameRequired, []),
    email: checkEmail(input.email),
  });
}

/**
 * A picture about to be uploaded. `mimeType` is what the browser reports (the form's check); the
 * server passes the type it detected from the bytes, never the declared one.
 */
export type ProfilePictureInput = { mimeType: string | null | undefined; size: number };
export const PROFILE_PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export function validateProfilePicture(input: ProfilePictureInput): FieldError[] {
  const isImage = !!input.mimeType && (PROFILE_PICTURE_TYPES as readonly string[]).includes(input.mimeType);
  return collect({
    profilePicture: !isImage
      ? AUTH_MESSAGES.pictureNotImage
      : input.size > PROFILE_PICTURE_MAX_BYTES
        ? AUTH_MESSAGES.pictureTooLarge
        : null,
  });
}
