import { userDecider } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { later, now, registerUser, userId } from '../runner/testing/fixtures';
import { readModelSpec, recordedStream } from '../runner/testing/read-model-spec';
import { usersProjection } from './projector';

const ROWS = `SELECT user_id, first_name, last_name, email, email_verified, verification_token_hash, version
  FROM users ORDER BY user_id`;

const verify = { type: 'VerifyEmail', data: { tokenHash: 'hash-1', now } } as const;
const rename = { type: 'UpdateProfile', data: { firstName: 'Asha', lastName: 'Menon', now: later } } as const;

describe('users read model in PostgreSQL', () => {
  const spec = readModelSpec(usersProjection);

  const user = () => recordedStream(userDecider, `user-${userId}`, null);

  it('holds one row per registered user, as their events leave it', async () => {
    const stream = user();
    await spec.apply(stream.decide(registerUser));
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
    const counts = await spec.landsOnce(user().decide(registerUser, verify, rename));
    expect(counts).toEqual([1]);
  });
});
