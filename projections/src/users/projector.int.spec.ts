import { userDecider } from '@kosh/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { later, now, userId } from '../runner/testing/fixtures';
import { type ReadModelSpec, readModelSpec, recordedStream } from '../runner/testing/read-model-spec';
import { usersProjection } from './projector';

const ROWS = `SELECT user_id, first_name, last_name, email, email_verified, verification_token_hash, version
  FROM users ORDER BY user_id`;

const verification = { tokenHash: 'hash-1', sealedToken: 'sealed-1', expiresAt: '2026-01-11T10:00:00.000Z' };
const register = {
  type: 'RegisterUser',
  data: {
    userId,
    firstName: 'Asha',
    lastName: 'Rao',
    email: 'asha@example.in',
    passwordHash: 'x',
    verification,
    now,
  },
} as const;
const verify = { type: 'VerifyEmail', data: { tokenHash: 'hash-1', now } } as const;
const rename = { type: 'UpdateProfile', data: { firstName: 'Asha', lastName: 'Menon', now: later } } as const;

describe('users read model in PostgreSQL', () => {
  let spec: ReadModelSpec;
  beforeAll(async () => {
    spec = await readModelSpec(usersProjection);
  });
  afterAll(() => spec?.drop());
  beforeEach(() => spec.reset());

  const user = () => recordedStream(userDecider, `user-${userId}`, null);

  it('holds one row per registered user, as their events leave it', async () => {
    const stream = user();
    await spec.apply(stream.decide(register));
    expect(await spec.rows(ROWS)).toEqual([
      {
        user_id: userId,
        first_name: 'Asha',
        last_name: 'Rao',
        email: 'asha@example.in',
        email_verified: false,
        verification_token_hash: 'hash-1',
        version: 2,
      },
    ]);
    await spec.apply(stream.decide(verify, rename));
    expect(await spec.rows(ROWS)).toEqual([
      {
        user_id: userId,
        first_name: 'Asha',
        last_name: 'Menon',
        email: 'asha@example.in',
        email_verified: true,
        verification_token_hash: null,
        version: 4,
      },
    ]);
  });

  it('lands an event delivered twice once', async () => {
    const { once, again, doubled } = await spec.deliveredTwice(user().decide(register, verify, rename));
    expect(again).toEqual(once);
    expect(doubled).toEqual(once);
    expect(once[0]).toMatch(/^1:/);
  });
});
