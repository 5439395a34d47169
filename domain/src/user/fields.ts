import { fieldTable, type RecordOf } from '../shared/field-table';

/**
 * The profile a user edits (PUT /api/auth/profile), declared once (see `fieldTable`): the names
 * `ProfileUpdated` carries whole.
 */
export const PROFILE_FIELDS = fieldTable({
  firstName: { wire: 'first_name', kind: 'text', label: 'First Name' },
  lastName: { wire: 'last_name', kind: 'text', label: 'Last Name' },
});

/**
 * The account's address: sent with the profile, but a change is applied only once a link
 * mailed to it is opened (`RequestEmailChange`, `EmailChanged`).
 */
export const EMAIL_FIELDS = fieldTable({
  email: { wire: 'email', kind: 'text', label: 'Email' },
});

/** The names of `PROFILE_FIELDS`. */
export type ProfileNames = RecordOf<typeof PROFILE_FIELDS>;
