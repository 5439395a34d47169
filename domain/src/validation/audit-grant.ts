/**
 * The auditor-grant form's rules and messages (issue 14), shared by the API and the web form.
 * Instants arrive parsed (ISO-8601 UTC) or as `null` when the text was not a date: parsing the
 * India-time forms is the edge's job, judging them is this one's.
 */
import type { FieldError } from '../shared/errors';
import { isValidEmail, normalizeEmail } from './auth';

export const AUDIT_GRANT_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Enter a valid email',
  emailOwn: 'You cannot grant access to your own account',
  expiresAtRequired: 'Expiry is required',
  expiresAtInvalid: 'Expiry must be a date (YYYY-MM-DD) or a date and time',
  expiresAtPast: 'Expiry must be in the future',
  expiresAtTooFar: 'Expiry must be within one year',
  asOfLimitInvalid: 'As-of limit must be a date (YYYY-MM-DD) or a date and time',
} as const;

/** A grant lasts at most a year: an auditor's engagement, not a second owner. */
export const AUDIT_GRANT_MAX_MS = 366 * 24 * 60 * 60 * 1000;

export type AuditGrantInput = {
  /** Normalized when valid. */
  email: string;
  /** ISO instant; '' when missing, 'invalid' when not a date. */
  expiresAt: string;
  /** ISO instant or null (no limit); 'invalid' when not a date. */
  asOfLimit: string | null;
};

export function validateAuditGrant(input: AuditGrantInput, ownerEmail: string, now: string): FieldError[] {
  const errors: FieldError[] = [];
  const email = input.email.trim();
  if (email === '') errors.push({ field: 'email', message: AUDIT_GRANT_MESSAGES.emailRequired });
  else if (!isValidEmail(email)) errors.push({ field: 'email', message: AUDIT_GRANT_MESSAGES.emailInvalid });
  else if (normalizeEmail(email) === normalizeEmail(ownerEmail))
    errors.push({ field: 'email', message: AUDIT_GRANT_MESSAGES.emailOwn });
  const expires = Date.parse(input.expiresAt);
  if (input.expiresAt === '')
    errors.push({ field: 'expires_at', message: AUDIT_GRANT_MESSAGES.expiresAtRequired });
  else if (Number.isNaN(expires))
    errors.push({ field: 'expires_at', message: AUDIT_GRANT_MESSAGES.expiresAtInvalid });
  else if (expires <= Date.parse(now))
    errors.push({ field: 'expires_at', message: AUDIT_GRANT_MESSAGES.expiresAtPast });
  else if (expires - Date.parse(now) > AUDIT_GRANT_MAX_MS)
    errors.push({ field: 'expires_at', message: AUDIT_GRANT_MESSAGES.expiresAtTooFar });
  if (input.asOfLimit !== null && Number.isNaN(Date.parse(input.asOfLimit)))
    errors.push({ field: 'as_of_limit', message: AUDIT_GRANT_MESSAGES.asOfLimitInvalid });
  return errors;
}
