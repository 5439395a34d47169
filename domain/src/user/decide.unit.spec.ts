import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  UnauthorizedError,
  ValidationError,
} from '../shared/errors';
import { DeciderSpecification } from '../testing/decider-specification';
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
  const update = (firstName: string, lastName: string) =>
    ({ type: 'UpdateProfile', data: { firstName, lastName, now: later } }) as const;
  const changeEmail = (email: string) =>
    ({ type: 'RequestEmailChange', data: { email, verification: link, now: later } }) as const;

  it('updates names', () => {
    given([registered, verified])
      .when(update('Asha', 'Iyer'))
      .then([
        { type: 'ProfileUpdated', data: { userId, firstName: 'Asha', lastName: 'Iyer', updatedAt: later } },
      ]);
  });

  const changeRequested: UserEvent = {
    type: 'EmailChangeRequested',
    data: { userId, email: 'asha@new.in', ...link, requestedAt: later },
  };

  it('does not change the e-mail yet: it mails a link to confirm the new address', () => {
    given([registered, verified]).when(changeEmail('asha@new.in')).then([changeRequested]);
  });

  it('changes the e-mail, verified, when that link is opened', () => {
    given([registered, verified, changeRequested])
      .when({ type: 'VerifyEmail', data: { tokenHash: 'hash-1', now: later } })
      .then([
        {
          type: 'EmailChanged',
          data: { userId, previousEmail: 'asha@example.in', email: 'asha@new.in', changedAt: later },
        },
        { type: 'EmailVerified', data: { userId, email: 'asha@new.in', verifiedAt: later } },
      ]);
  });

  it('asks nothing when the address is the current one', () => {
    given([registered, verified]).when(changeEmail('asha@example.in')).then([]);
  });

  it("notes a claim on the owner's address, unless it is no longer theirs", () => {
    const claim = {
      type: 'NoteEmailClaimAttempt',
      data: { email: 'asha@example.in', via: 'register', now },
    } as const;
    given([registered])
      .when(claim)
      .then([
        {
          type: 'EmailClaimAttempted',
          data: { userId, email: 'asha@example.in', via: 'register', attemptedAt: now },
        },
      ]);
    given([registered])
      .when({ ...claim, data: { ...claim.data, email: 'someone@example.in' } })
      .then([]);
  });

  it('records nothing when nothing changed', () => {
    given([registered]).when(update('Asha', 'Rao')).then([]);
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

describe('links die when they should', () => {
  const resetWith = (tokenHash: string, at = later) =>
    ({ type: 'ResetPassword', data: { tokenHash, passwordHash: '$argon2id$new', now: at } }) as const;
  const emailChanged: UserEvent = {
    type: 'EmailChanged',
    data: { userId, previousEmail: 'asha@example.in', email: 'asha@new.in', changedAt: now },
  };
  const newerReset: UserEvent = {
    type: 'PasswordResetRequested',
    data: { ...resetRequested.data, tokenHash: 'hash-2', sealedToken: 'sealed-2' },
  } as UserEvent;

  it('a reset link lives until then', () => {
    given([registered, verified, resetRequested])
      .when(resetWith('hash-1'))
      .then([
        {
          type: 'PasswordResetCompleted',
          data: { userId, passwordHash: '$argon2id$new', completedAt: later },
        },
      ]);
  });

  it('a reset link dies when the e-mail address changes', () => {
    given([registered, verified, resetRequested, emailChanged])
      .when(resetWith('hash-1'))
      .thenThrows(BadRequestError);
  });

  it('a reset link dies when the password changes', () => {
    given([
      registered,
      resetRequested,
      { type: 'PasswordChanged', data: { userId, passwordHash: 'x', changedAt: now } },
    ])
      .when(resetWith('hash-1'))
      .thenThrows(BadRequestError);
  });

  it('a reset link dies when a newer one is mailed', () => {
    given([registered, resetRequested, newerReset]).when(resetWith('hash-1')).thenThrows(BadRequestError);
  });

  it('a reset link dies once used', () => {
    given([
      registered,
      resetRequested,
      { type: 'PasswordResetCompleted', data: { userId, passwordHash: 'y', completedAt: now } },
    ])
      .when(resetWith('hash-1'))
      .thenThrows(BadRequestError);
  });

  it('a reset link dies after 1 hour', () => {
    given([registered, resetRequested])
      .when(resetWith('hash-1', '2026-01-10T11:00:00.000Z'))
      .thenThrows(BadRequestError, (e) => expect(e.message).toBe(USER_MESSAGES.invalidResetLink));
  });

  it('a verification link for the old address dies when the address changes', () => {
    given([registered, verificationRequested, emailChanged])
      .when({ type: 'VerifyEmail', data: { tokenHash: 'hash-1', now: later } })
      .thenThrows(BadRequestError, (e) => expect(e.message).toBe(USER_MESSAGES.invalidVerificationLink));
  });

  it('a link confirming a new address dies when another change is asked for', () => {
    const toFirst: UserEvent = {
      type: 'EmailChangeRequested',
      data: { userId, email: 'first@new.in', ...link, requestedAt: now },
    };
    const toSecond: UserEvent = {
      type: 'EmailChangeRequested',
      data: { userId, email: 'second@new.in', ...link, tokenHash: 'hash-2', requestedAt: later },
    };
    given([registered, verified, toFirst, toSecond])
      .when({ type: 'VerifyEmail', data: { tokenHash: 'hash-1', now: later } })
      .thenThrows(BadRequestError);
  });
});
