import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../shared/errors';
import { DeciderSpecification } from '../testing/decider-specification';
import { userDecider } from './decide';
import type { UserEvent } from './events';
import type { NewSession } from './security';

const given = DeciderSpecification.for(userDecider);
const userId = 'u-1';
const email = 'asha@example.in';
const now = '2026-01-10T10:00:00.000Z';
const later = '2026-01-10T10:01:00.000Z';
const expires = '2026-01-10T10:05:00.000Z';

const registered: UserEvent[] = [
  {
    type: 'UserRegistered',
    data: { userId, firstName: 'Asha', lastName: 'Rao', email, passwordHash: 'h', registeredAt: now },
  },
  { type: 'EmailVerified', data: { userId, email, verifiedAt: now } },
];
const session = (sessionId: string, browser = 'Chrome'): NewSession => ({
  sessionId,
  browser,
  os: 'Windows',
  address: '192.0.2.1',
  expiresAt: '2026-01-11T10:00:00.000Z',
});
const started = (sessionId: string, browser = 'Chrome', newBrowser = false): UserEvent => ({
  type: 'SessionStarted',
  data: { userId, email, ...session(sessionId, browser), newBrowser, startedAt: now },
});
const enabled: UserEvent[] = [
  { type: 'TwoFactorSetupStarted', data: { userId, sealedSecret: 'sealed', startedAt: now } },
  { type: 'TwoFactorEnabled', data: { userId, recoveryCodeHashes: ['r1', 'r2'], step: 100, enabledAt: now } },
];
const signIn = (
  proof: { kind: 'totp'; step: number | null } | { kind: 'recovery'; codeHash: string },
  challengeId = 'c1',
) =>
  ({
    type: 'CompleteTwoFactorSignIn',
    data: { challengeId, challengeExpiresAt: expires, proof, session: session('s2'), now: later },
  }) as const;

describe('two-factor sign-in (issue 32)', () => {
  it('turns on only after a setup and with a matched code', () => {
    given(registered)
      .when({ type: 'ConfirmTwoFactor', data: { step: 5, recoveryCodeHashes: [], now } })
      .thenThrows(ConflictError);
    given([...registered, enabled[0] as UserEvent])
      .when({ type: 'ConfirmTwoFactor', data: { step: null, recoveryCodeHashes: [], now } })
      .thenThrows(ValidationError);
  });

  it('refuses a time step already used or older, and takes the next one', () => {
    given([...registered, ...enabled])
      .when(signIn({ kind: 'totp', step: 100 }))
      .thenThrows(UnauthorizedError);
    given([...registered, ...enabled])
      .when(signIn({ kind: 'totp', step: 99 }))
      .thenThrows(UnauthorizedError);
    const events = userDecider.decide(
      signIn({ kind: 'totp', step: 101 }),
      [...registered, ...enabled].reduce(userDecider.evolve, userDecider.initialState()),
    );
    expect(events.map((e) => e.type)).toEqual(['TwoFactorCodeUsed', 'SessionStarted']);
  });

  it('spends a recovery code and a pending sign-in once', () => {
    const used: UserEvent = {
      type: 'TwoFactorCodeUsed',
      data: {
        userId,
        method: 'recovery',
        step: null,
        codeHash: 'r1',
        challengeId: 'c1',
        challengeExpiresAt: expires,
        usedAt: later,
      },
    };
    given([...registered, ...enabled, used])
      .when(signIn({ kind: 'recovery', codeHash: 'r1' }, 'c2'))
      .thenThrows(UnauthorizedError);
    given([...registered, ...enabled, used])
      .when(signIn({ kind: 'recovery', codeHash: 'r2' }, 'c1'))
      .thenThrows(UnauthorizedError, (e) => expect(e.message).toMatch(/expired/));
  });

  it('starts no session without the second factor while it is on', () => {
    given([...registered, ...enabled])
      .when({ type: 'StartSession', data: { session: session('s9'), now } })
      .thenThrows(UnauthorizedError);
  });
});

describe('sessions (issue 32)', () => {
  it('says a browser is new only when the account has signed in from others before', () => {
    const state = (events: UserEvent[]) => events.reduce(userDecider.evolve, userDecider.initialState());
    const first = userDecider.decide(
      { type: 'StartSession', data: { session: session('s1'), now } },
      state(registered),
    );
    expect(first[0]).toMatchObject({ type: 'SessionStarted', data: { newBrowser: false } });
    const firefox = userDecider.decide(
      { type: 'StartSession', data: { session: session('s2', 'Firefox'), now } },
      state([...registered, started('s1')]),
    );
    expect(firefox[0]).toMatchObject({ data: { newBrowser: true } });
  });

  it("ends only a live session of the user's own: another id is 404", () => {
    given([...registered, started('s1')])
      .when({ type: 'EndSession', data: { sessionId: 'someone-elses', reason: 'ended', now } })
      .thenThrows(NotFoundError);
    given([...registered, started('s1'), started('s2')])
      .when({ type: 'EndOtherSessions', data: { keepSessionId: 's1', now } })
      .then([{ type: 'SessionEnded', data: { userId, sessionId: 's2', reason: 'ended', endedAt: now } }]);
  });
});
