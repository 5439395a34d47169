import { describe, expect, it } from 'vitest';
import {
  isValidEmail,
  normalizeEmail,
  PROFILE_PICTURE_MAX_BYTES,
  validateChangePassword,
  validateChangePasswordForm,
  validateForgotPassword,
  validateLogin,
  validateProfile,
  validateProfilePicture,
  validateRegister,
  validateRegisterForm,
  validateResetPassword,
} from './auth';

const validRegistration = {
  firstName: 'Asha',
  lastName: 'Rao',
  email: 'asha@example.in',
  password: 'Secret1',
};

describe('login rules', () => {
  it('requires e-mail and password', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual([
      { field: 'email', message: 'Email is required' },
      { field: 'password', message: 'Password is required' },
    ]);
  });

  it('checks the e-mail format and the password length', () => {
    expect(validateLogin({ email: 'asha@', password: '12345' })).toEqual([
      { field: 'email', message: 'Enter a valid email' },
      { field: 'password', message: 'Password should be of minimum 6 characters length' },
    ]);
  });

  it('accepts a valid pair', () => {
    expect(validateLogin({ email: 'asha@example.in', password: 'whatever' })).toEqual([]);
  });
});

describe('register rules', () => {
  it('accepts a valid registration', () => {
    expect(validateRegister(validRegistration)).toEqual([]);
  });

  it('requires every field', () => {
    expect(validateRegister({})).toEqual([
      { field: 'firstName', message: 'First name is required' },
      { field: 'lastName', message: 'Last name is required' },
      { field: 'email', message: 'Email is required' },
      { field: 'password', message: 'Password is required' },
    ]);
  });

  it('needs names of at least 2 characters', () => {
    expect(validateRegister({ ...validRegistration, firstName: 'A', lastName: ' B ' })).toEqual([
      { field: 'firstName', message: 'First name should be at least 2 characters' },
      { field: 'lastName', message: 'Last name should be at least 2 characters' },
    ]);
  });

  it.each([
    ['Sec1', 'Password should be of minimum 6 characters length'],
    ['secret1', 'Password must contain at least one uppercase letter, one lowercase letter, and one number'],
    ['SECRET1', 'Password must contain at least one uppercase letter, one lowercase letter, and one number'],
    ['Secrets', 'Password must contain at least one uppercase letter, one lowercase letter, and one number'],
  ])('rejects the password %s', (password, message) => {
    expect(validateRegister({ ...validRegistration, password })).toEqual([{ field: 'password', message }]);
  });

  it('checks the confirmation on the form', () => {
    expect(validateRegisterForm({ ...validRegistration, confirmPassword: '' })).toEqual([
      { field: 'confirmPassword', message: 'Password confirmation is required' },
    ]);
    expect(validateRegisterForm({ ...validRegistration, confirmPassword: 'Secret2' })).toEqual([
      { field: 'confirmPassword', message: 'Passwords must match' },
    ]);
    expect(validateRegisterForm({ ...validRegistration, confirmPassword: 'Secret1' })).toEqual([]);
  });
});

describe('forgot and reset password rules', () => {
  it('forgot needs a valid e-mail', () => {
    expect(validateForgotPassword({ email: ' ' })).toEqual([
      { field: 'email', message: 'Email is required' },
    ]);
    expect(validateForgotPassword({ email: 'nope' })).toEqual([
      { field: 'email', message: 'Enter a valid email' },
    ]);
  });

  it("reset takes register's password rule", () => {
    expect(validateResetPassword({ password: 'secret1' })).toEqual([
      {
        field: 'password',
        message: 'Password must contain at least one uppercase letter, one lowercase letter, and one number',
      },
    ]);
    expect(validateResetPassword({ password: 'Secret1' })).toEqual([]);
  });
});

describe('change password rules', () => {
  it('requires the current and the new password', () => {
    expect(validateChangePassword({})).toEqual([
      { field: 'currentPassword', message: 'Current password is required' },
      { field: 'newPassword', message: 'New password is required' },
    ]);
  });

  it('needs a new password of at least 6 characters', () => {
    expect(validateChangePassword({ currentPassword: 'x', newPassword: '12345' })).toEqual([
      { field: 'newPassword', message: 'Password must be at least 6 characters' },
    ]);
  });

  it('checks the confirmation on the form', () => {
    const base = { currentPassword: 'Secret1', newPassword: 'Better2' };
    expect(validateChangePasswordForm({ ...base, confirmPassword: '' })).toEqual([
      { field: 'confirmPassword', message: 'Please confirm your new password' },
    ]);
    expect(validateChangePasswordForm({ ...base, confirmPassword: 'Better3' })).toEqual([
      { field: 'confirmPassword', message: 'Passwords do not match' },
    ]);
  });
});

describe('profile rules', () => {
  it('requires the first name and the e-mail, not the last name', () => {
    expect(validateProfile({ firstName: '', lastName: '', email: '' })).toEqual([
      { field: 'firstName', message: 'First name is required' },
      { field: 'email', message: 'Email is required' },
    ]);
    expect(validateProfile({ firstName: 'Asha', lastName: '', email: 'asha@example.in' })).toEqual([]);
  });

  it('accepts images up to 5,242,880 bytes only', () => {
    expect(validateProfilePicture({ mimeType: 'image/png', size: PROFILE_PICTURE_MAX_BYTES })).toEqual([]);
    expect(validateProfilePicture({ mimeType: 'image/png', size: PROFILE_PICTURE_MAX_BYTES + 1 })).toEqual([
      { field: 'profilePicture', message: 'Image size must be less than 5MB' },
    ]);
    expect(validateProfilePicture({ mimeType: 'text/plain', size: 10 })).toEqual([
      { field: 'profilePicture', message: 'Please select an image file' },
    ]);
  });
});

describe('e-mail addresses: one plain mailbox', () => {
  it.each([
    'alice@example.in',
    'Alice.O+loans@Mail.Example.co.in',
    "o'brien@example.com",
    '  padded@example.in ',
    'x@a-b.example',
  ])('accepts %j', (address) => {
    expect(isValidEmail(address)).toBe(true);
  });

  it.each([
    ['a comma list', 'alice@example.in,x'],
    ['two addresses', 'alice@example.in, bob@example.in'],
    ['a display name', 'Alice <alice@example.in>'],
    ['a quoted local part', '"alice smith"@example.in'],
    ['a line break (header injection)', 'alice@example.in\r\nBcc: eve@example.in'],
    ['a trailing line feed', 'alice@example.in\n'],
    ['a NUL', 'alice\u0000@example.in'],
    ['two @', 'alice@evil.in@example.in'],
    ['a leading dot', '.alice@example.in'],
    ['a double dot', 'al..ice@example.in'],
    ['no dot in the domain', 'alice@localhost'],
    ['an IP literal', 'alice@[127.0.0.1]'],
    ['a numeric top-level label', 'alice@example.123'],
    ['a label starting with a hyphen', 'alice@-example.in'],
    ['non-ASCII', 'alïce@example.in'],
    ['a local part over 64 characters', `${'a'.repeat(65)}@example.in`],
    ['over 254 characters', `a@${'b'.repeat(250)}.in`],
  ])('refuses %s with the spec message', (_label, address) => {
    expect(isValidEmail(address)).toBe(false);
    expect(validateForgotPassword({ email: address })).toEqual([
      { field: 'email', message: 'Enter a valid email' },
    ]);
  });

  it('normalizes for identity: spaces trimmed, lower-cased', () => {
    expect(normalizeEmail('  Alice@Example.IN ')).toBe('alice@example.in');
  });
});
