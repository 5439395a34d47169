import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../shared/errors';
import { decideErasure, type ErasureState, erasureDecider, type RequestErasure } from './decide';

const now = '2026-05-04T05:00:00.000Z';
const request = (data: Partial<RequestErasure['data']> = {}): RequestErasure => ({
  type: 'RequestErasure',
  data: {
    userId: 'u1',
    email: 'u1@example.in',
    passwordGiven: true,
    passwordMatches: true,
    secondFactor: null,
    confirmation: 'DELETE',
    now,
    ...data,
  },
});
const none = erasureDecider.initialState();
const fieldsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
  throw new Error('not refused');
};

describe('erasure decider', () => {
  it('schedules the erasure 7 days after the request', () => {
    expect(decideErasure(request(), none)).toEqual([
      {
        type: 'AccountErasureRequested',
        data: {
          userId: 'u1',
          email: 'u1@example.in',
          requestedAt: now,
          eraseAfter: '2026-05-11T05:00:00.000Z',
        },
      },
    ]);
  });

  it('asks for the password, the second factor when on, and exactly DELETE, each on its field', () => {
    expect(fieldsOf(() => decideErasure(request({ passwordGiven: false, confirmation: '' }), none))).toEqual([
      { field: 'password', message: 'Password is required' },
      { field: 'confirmation', message: 'Type DELETE to confirm' },
    ]);
    expect(
      fieldsOf(() => decideErasure(request({ passwordMatches: false, confirmation: 'delete' }), none)),
    ).toEqual([
      { field: 'password', message: 'Password is incorrect' },
      { field: 'confirmation', message: 'Type DELETE to confirm' },
    ]);
    expect(fieldsOf(() => decideErasure(request({ secondFactor: 'missing' }), none))).toEqual([
      { field: 'code', message: 'Authentication code is required' },
    ]);
    expect(fieldsOf(() => decideErasure(request({ secondFactor: 'wrong' }), none))).toEqual([
      { field: 'code', message: 'Authentication code is incorrect' },
    ]);
    expect(decideErasure(request({ secondFactor: 'ok' }), none)).toHaveLength(1);
  });

  it('refuses a second request while one is pending; sign-in cancels it, and records nothing when none is', () => {
    const pending: ErasureState = erasureDecider.evolve(none, decideErasure(request(), none)[0]!);
    expect(() => decideErasure(request(), pending)).toThrow(ConflictError);
    const cancel = {
      type: 'CancelErasure',
      data: { userId: 'u1', email: 'u1@example.in', via: 'sign-in', now },
    } as const;
    expect(decideErasure(cancel, pending)).toEqual([
      {
        type: 'AccountErasureCancelled',
        data: { userId: 'u1', email: 'u1@example.in', via: 'sign-in', cancelledAt: now },
      },
    ]);
    expect(decideErasure(cancel, none)).toEqual([]);
    expect(() => decideErasure({ ...cancel, data: { ...cancel.data, via: 'restore' } }, none)).toThrow(
      ConflictError,
    );
  });
});
