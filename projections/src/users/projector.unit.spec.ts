import type { UserEvent } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { evolveUserRow, type UserRow } from './projector';

const userId = '6f1c2d7e-0000-4000-8000-000000000001';
const at = (minute: number) => `2026-01-10T10:${String(minute).padStart(2, '0')}:00.000Z`;

const events: (UserEvent & { streamVersion: number })[] = [
  {
    type: 'UserRegistered',
    data: {
      userId,
      firstName: "Robert'); DROP TABLE users;--",
      lastName: '<b>Rao</b>',
      email: 'asha@example.in',
      passwordHash: 'h',
      registeredAt: at(0),
    },
    streamVersion: 1,
  },
  {
    type: 'EmailVerificationRequested',
    data: {
      userId,
      email: 'asha@example.in',
      tokenHash: 'v1',
      sealedToken: 's',
      requestedAt: at(0),
      expiresAt: at(59),
    },
    streamVersion: 2,
  },
  { type: 'EmailVerified', data: { userId, email: 'asha@example.in', verifiedAt: at(5) }, streamVersion: 3 },
  {
    type: 'PasswordResetRequested',
    data: {
      userId,
      email: 'asha@example.in',
      tokenHash: 'r1',
      sealedToken: 's',
      requestedAt: at(6),
      expiresAt: at(59),
    },
    streamVersion: 4,
  },
  {
    type: 'PasswordResetCompleted',
    data: { userId, passwordHash: 'h2', completedAt: at(7) },
    streamVersion: 5,
  },
  {
    type: 'ProfilePictureSet',
    data: { userId, fileName: 'a.png', previousFileName: null, setAt: at(8) },
    streamVersion: 6,
  },
];

const fold = (list: typeof events) => list.reduce<UserRow | null>(evolveUserRow, null);

describe('users projector', () => {
  it('folds a user into the profile row, names verbatim', () => {
    expect(fold(events)).toEqual({
      userId,
      firstName: "Robert'); DROP TABLE users;--",
      lastName: '<b>Rao</b>',
      email: 'asha@example.in',
      emailVerified: true,
      profilePicture: 'a.png',
      createdAt: at(0),
      updatedAt: at(8),
      verificationTokenHash: null,
      resetTokenHash: null,
      tokensValidAfter: at(7),
      version: 6,
    });
  });

  it('ignores an event delivered twice', () => {
    const [first, second, third] = events;
    const once = fold([first!, second!, third!]);
    expect(fold([first!, second!, third!, second!, third!])).toEqual(once);
  });

  it('marks a changed e-mail unverified and keeps the lookups of outstanding links', () => {
    const row = fold([
      ...events.slice(0, 3),
      {
        type: 'EmailChanged',
        data: { userId, previousEmail: 'asha@example.in', email: 'asha@new.in', changedAt: at(9) },
        streamVersion: 4,
      },
      {
        type: 'EmailVerificationRequested',
        data: {
          userId,
          email: 'asha@new.in',
          tokenHash: 'v2',
          sealedToken: 's',
          requestedAt: at(9),
          expiresAt: at(59),
        },
        streamVersion: 5,
      },
    ]);
    expect(row).toMatchObject({ email: 'asha@new.in', emailVerified: false, verificationTokenHash: 'v2' });
  });

  it('has no row before registration', () => {
    expect(fold(events.slice(1))).toBeNull();
  });
});
