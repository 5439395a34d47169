import { type APIRequestContext, expect } from '@playwright/test';
import { linkFromMail } from './mailbox';

export type TestUser = { firstName: string; lastName: string; email: string; password: string };

let counter = 0;

/** A user nobody has registered yet; passwords follow the register rule. */
export function newUser(firstName = 'Asha'): TestUser {
  counter += 1;
  const unique = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return { firstName, lastName: 'Verma', email: `e2e-${unique}@example.com`, password: 'Secret123' };
}

/**
 * Registers through the API; the address is not verified yet. The account is made just after
 * the answer (the answer is the same for a taken address), so this waits for its mail.
 */
export async function registeredUser(request: APIRequestContext, firstName?: string): Promise<TestUser> {
  const user = newUser(firstName);
  const registered = await request.post('/api/auth/register', {
    data: {
      first_name: user.firstName,
      last_name: user.lastName,
      email: user.email,
      password: user.password,
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  await linkFromMail(request, user.email, '/verify-email');
  return user;
}

/** Registers and verifies through the API, for tests whose subject is not registration. */
export async function createVerifiedUser(request: APIRequestContext, firstName?: string): Promise<TestUser> {
  const user = await registeredUser(request, firstName);
  const link = await linkFromMail(request, user.email, '/verify-email');
  const token = new URL(link).searchParams.get('token');
  const verified = await request.post('/api/auth/verify-email', { data: { token } });
  expect(verified.ok(), await verified.text()).toBe(true);
  return user;
}

/** A token the app must treat as expired: `exp` one hour in the past. */
export function expiredToken(): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) - 3600;
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: 'someone', exp })}.c2lnbmF0dXJl`;
}
