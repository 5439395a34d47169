import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  UnauthorizedError,
  ValidationError,
} from '../shared/errors';
import { DeciderSpecification } from '../shared/testing';
import { checkSignIn, emailReservationDecider, USER_MESSAGES, userDecider } from './decide';
import type { UserEvent } from './events';

const given = DeciderSpecification.for(userDecider);
const givenReservation = DeciderSpecification.for(emailReservationDecider);

const userId = '6f1c2d7e-0000-4000-8000-000000000001';
const now = '2026-01-10T10:00:00.000Z';
const later = '2026-01-10T10:30:00.000Z';
const inTwoHours = '2026-01-10T12:00:00.000Z';
const link = { tokenHash: 'hash-1', sealedToken: 'sealed-1', expiresAt: '2026-01-10T11:00:00.000Z' };

const registered: UserEvent = {
  type: 'UserRegistered',
  data: {
    userId,
    firstName: 'Asha',
    lastName: 'Rao',
    email: 'asha@example.in',
    passwordHash: '$argon2id$old',
    registeredAt: now,
  },
};
const verificationRequested: UserEvent = {
  type: 'EmailVerificationRequested',
  data: { userId, email: 'asha@example.in', ...link, requestedAt: now },
};
const verified: UserEvent = {
  type: 'EmailVerified',
  data: { userId, email: 'asha@example.in', verifiedAt: now },
};
const resetRequested: UserEvent = {
  type: 'PasswordResetRequested',
  data: { userId, email: 'asha@example.in', ...link, requestedAt: now },
};

describe('registration', () => {
  it('registers the user and asks for verification of the address', () => {
    given([])
      .when({
        type: 'RegisterUser',
        data: {
          userId,
          firstName: 'Asha',
          lastName: 'Rao',
          email: 'asha@example.in',
          passwordHash: '$argon2id$old',
          verification: link,
          now,
        },
      })
      .then([registered, verificationRequested]);
  });

  it('does not register the same user twice', () => {
    given([registered])
      .when({
        type: 'RegisterUser',
        data: { ...registered.data, verification: link, now } as never,
      })
      .thenThrows(ConflictError);
  });
});

describe('e-mail verification', () => {
  it('verifies with the latest link', () => {
    given([registered, verificationRequested])
      .when({ type: 'VerifyEmail', data: { tokenHash: 'hash-1', now: later } })
      .then([{ type: 'EmailVerified', data: { ...verified.data, verifiedAt: later } }]);
  });

  it('rejects a link used twice', () => {
    given([registered, verificationRequested, verified])
      .when({ type: 'VerifyEmail', data: { tokenHash: 'hash-1', now: later } })
      .thenThrows(BadRequestError, (e) => expect(e.message).toBe('Invalid or expired verification link'));
  });

  it('rejects an unknown, superseded or expired link', () => {
    const resent: UserEvent = {
      type: 'EmailVerificationRequested',
      data: {
        userId,
        email: 'asha@example.in',
        tokenHash: 'hash-2',
        sealedToken: 'sealed-2',
        expiresAt: inTwoHours,
        requestedAt: later,
      },
    };
    given([registered, verificationRequested])
      .when({ type: 'VerifyEmail', data: { tokenHash: 'other', now: later } })
      .thenThrows(BadRequestError);
    given([registered, verificationRequested, resent])
      .when({ type: 'VerifyEmail', data: { tokenHash: 'hash-1', now: later } })
      .thenThrows(BadRequestError);
    given([registered, verificationRequested])
      .when({ type: 'VerifyEmail', data: { tokenHash: 'hash-1', now: inTwoHours } })
      .thenThrows(BadRequestError);
  });

  it('resends only while unverified', () => {
    given([registered, verificationRequested])
      .when({ type: 'RequestEmailVerification', data: { verification: link, now: later } })
      .then([
        { type: 'EmailVerificationRequested', data: { ...verificationRequested.data, requestedAt: later } },
      ]);
    given([registered, verificationRequested, verified])
      .when({ type: 'RequestEmailVerification', data: { verification: link, now: later } })
      .then([]);
  });
});

describe('sign-in rule', () => {
  const fold = (events: UserEvent[]) => events.reduce(userDecider.evolve, userDecider.initialState());

  it('gives the same answer for an unknown address and a wrong password', () => {
    expect(() => checkSignIn(fold([]), true)).toThrow(UnauthorizedError);
    expect(() => checkSignIn(fold([registered, verified]), false)).toThrow(USER_MESSAGES.invalidCredentials);
  });

  it('asks an unverified user to verify, but only with the right password', () => {
    expect(() => checkSignIn(fold([registered, verificationRequested]), true)).toThrow(ForbiddenError);
    expect(USER_MESSAGES.emailNotVerified).toContain('verify');
    expect(() => checkSignIn(fold([registered, verificationRequested]), false)).toThrow(UnauthorizedError);
  });

  it('lets a verified user in', () => {
    expect(checkSignIn(fold([registered, verificationRequested, verified]), true).userId).toBe(userId);
  });
});

describe('password reset', () => {
  const reset = {
    type: 'ResetPassword',
    data: { tokenHash: 'hash-1', passwordHash: '$argon2id$new', now: later },
  } as const;
  const completed: UserEvent = {
    type: 'PasswordResetCompleted',
    data: { userId, passwordHash: '$argon2id$new', completedAt: later },
  };

  it('issues a link', () => {
    given([registered])
      .when({ type: 'RequestPasswordReset', data: { reset: link, now } })
      .then([resetRequested]);
  });

  it('resets with a live link', () => {
    given([registered, resetRequested]).when(reset).then([completed]);
  });

  it('works once', () => {
    given([registered, resetRequested, completed]).when(reset).thenThrows(BadRequestError);
  });

  it('expires after its hour', () => {
    given([registered, resetRequested])
      .when({ ...reset, data: { ...reset.data, now: '2026-01-10T11:00:00.000Z' } })
      .thenThrows(BadRequestError, (e) => expect(e.message).toBe(USER_MESSAGES.invalidResetLink));
  });

  it('dies when a newer link is issued', () => {
    const newer: UserEvent = {
      type: 'PasswordResetRequested',
      data: {
        userId,
        email: 'asha@example.in',
        tokenHash: 'hash-2',
        sealedToken: 'sealed-2',
        expiresAt: inTwoHours,
        requestedAt: later,
      },
    };
    given([registered, resetRequested, newer]).when(reset).thenThrows(BadRequestError);
  });

  it('dies when the password is changed', () => {
    const changed: UserEvent = {
      type: 'PasswordChanged',
      data: { userId, passwordHash: 'x', changedAt: now },
    };
    given([registered, resetRequested, changed]).when(reset).thenThrows(BadRequestError);
  });
});

describe('password change', () => {
  it('changes the password when the current one matches', () => {
    given([registered, verified])
      .when({
        type: 'ChangePassword',
        data: { currentPasswordMatches: true, passwordHash: '$argon2id$new', now },
      })
      .then([{ type: 'PasswordChanged', data: { userId, passwordHash: '$argon2id$new', changedAt: now } }]);
  });

  it('reports a wrong current password on that field', () => {
    given([registered, verified])
      .when({ type: 'ChangePassword', data: { currentPasswordMatches: false, passwordHash: 'x', now } })
      .thenThrows(ValidationError, (e) =>
        expect(e.errors).toEqual([{ field: 'currentPassword', message: 'Current password is incorrect' }]),
      );
  });

  it('sets the instant before which tokens are rejected', () => {
    const state = [
      registered,
      { type: 'PasswordChanged', data: { userId, passwordHash: 'x', changedAt: later } },
    ]
      .map((e) => e as UserEvent)
      .reduce(userDecider.evolve, userDecider.initialState());
    expect(state.status === 'registered' && state.tokensValidAfter).toBe(later);
  });
});

describe('profile', () => {
  const update = (firstName: string, lastName: string, email: string) =>
    ({
      type: 'UpdateProfile',
      data: { firstName, lastName, email, verification: link, now: later },
    }) as const;

  it('updates names', () => {
    given([registered, verified])
      .when(update('Asha', 'Iyer', 'asha@example.in'))
      .then([
        { type: 'ProfileUpdated', data: { userId, firstName: 'Asha', lastName: 'Iyer', updatedAt: later } },
      ]);
  });

  it('changes the e-mail, which must be verified again', () => {
    given([registered, verified])
      .when(update('Asha', 'Rao', 'asha@new.in'))
      .then([
        {
          type: 'EmailChanged',
          data: { userId, previousEmail: 'asha@example.in', email: 'asha@new.in', changedAt: later },
        },
        {
          type: 'EmailVerificationRequested',
          data: { userId, email: 'asha@new.in', ...link, requestedAt: later },
        },
      ]);
  });

  it('records nothing when nothing changed', () => {
    given([registered])
      .when(update('Asha', 'Rao', 'asha@example.in'))
      .then([]);
  });

  it('sets, replaces and removes the picture', () => {
    const set: UserEvent = {
      type: 'ProfilePictureSet',
      data: { userId, fileName: 'a.png', previousFileName: null, setAt: now },
    };
    given([registered])
      .when({ type: 'SetProfilePicture', data: { fileName: 'a.png', now } })
      .then([set]);
    given([registered, set])
      .when({ type: 'SetProfilePicture', data: { fileName: 'b.webp', now: later } })
      .then([
        {
          type: 'ProfilePictureSet',
          data: { userId, fileName: 'b.webp', previousFileName: 'a.png', setAt: later },
        },
      ]);
    given([registered, set])
      .when({ type: 'RemoveProfilePicture', data: { now: later } })
      .then([{ type: 'ProfilePictureRemoved', data: { userId, fileName: 'a.png', removedAt: later } }]);
    given([registered])
      .when({ type: 'RemoveProfilePicture', data: { now: later } })
      .then([]);
  });
});

describe('e-mail reservation', () => {
  const other = '6f1c2d7e-0000-4000-8000-000000000002';
  const email = 'asha@example.in';
  const reserved = { type: 'EmailReserved', data: { email, userId, reservedAt: now } } as const;
  const released = { type: 'EmailReleased', data: { email, userId, releasedAt: later } } as const;

  it('reserves a free address', () => {
    givenReservation([])
      .when({ type: 'ReserveEmail', data: { email, userId, now, holderUsesAddress: true } })
      .then([reserved]);
  });

  it('refuses an address held by someone else', () => {
    givenReservation([reserved])
      .when({ type: 'ReserveEmail', data: { email, userId: other, now, holderUsesAddress: true } })
      .thenThrows(ConflictError, (e) => expect(e.message).toBe('An account with this email already exists'));
  });

  it('is idempotent for the holder', () => {
    givenReservation([reserved])
      .when({ type: 'ReserveEmail', data: { email, userId, now, holderUsesAddress: true } })
      .then([]);
  });

  it('can be re-reserved once released', () => {
    givenReservation([reserved])
      .when({ type: 'ReleaseEmail', data: { email, userId, now: later } })
      .then([released]);
    givenReservation([reserved, released])
      .when({ type: 'ReserveEmail', data: { email, userId: other, now: later, holderUsesAddress: true } })
      .then([{ type: 'EmailReserved', data: { email, userId: other, reservedAt: later } }]);
  });

  it('is released only by its holder', () => {
    givenReservation([reserved])
      .when({ type: 'ReleaseEmail', data: { email, userId: other, now } })
      .then([]);
  });
  describe('a reservation its holder never used', () => {
    const reserve = (at: string, holderUsesAddress: boolean) =>
      ({ type: 'ReserveEmail', data: { email, userId: other, now: at, holderUsesAddress } }) as const;
    const elevenMinutesLater = '2026-01-10T10:11:00.000Z';

    it('is taken over after 10 minutes', () => {
      givenReservation([reserved])
        .when(reserve(elevenMinutesLater, false))
        .then([
          { type: 'EmailReleased', data: { email, userId, releasedAt: elevenMinutesLater } },
          { type: 'EmailReserved', data: { email, userId: other, reservedAt: elevenMinutesLater } },
        ]);
    });

    it('is not taken over while it may still be completing', () => {
      givenReservation([reserved]).when(reserve('2026-01-10T10:05:00.000Z', false)).thenThrows(ConflictError);
    });

    it('is never taken over while the holder uses the address', () => {
      givenReservation([reserved]).when(reserve(elevenMinutesLater, true)).thenThrows(ConflictError);
    });
  });
});
