import type { Decider } from '../shared/decider';
import { ConflictError, type FieldError, ValidationError } from '../shared/errors';
import { assertNever, type Command } from '../shared/messages';
import { ERASURE_CONFIRMATION_WORD, ERASURE_COOLING_OFF_MS, type ErasureEvent } from './events';

export const ERASURE_MESSAGES = {
  passwordRequired: 'Password is required',
  passwordIncorrect: 'Password is incorrect',
  codeRequired: 'Authentication code is required',
  codeIncorrect: 'Authentication code is incorrect',
  confirmation: `Type ${ERASURE_CONFIRMATION_WORD} to confirm`,
  alreadyScheduled: 'Deletion of this account is already scheduled',
  notScheduled: 'No deletion of this account is scheduled',
} as const;

export type ErasureState = Readonly<{
  /** The instant the pending erasure is due; null when none is pending. */
  eraseAfter: string | null;
  requestedAt: string | null;
}>;

export const initialErasureState = (): ErasureState => ({ eraseAfter: null, requestedAt: null });

export function evolveErasure(_state: ErasureState, event: ErasureEvent): ErasureState {
  switch (event.type) {
    case 'AccountErasureRequested':
      return { eraseAfter: event.data.eraseAfter, requestedAt: event.data.requestedAt };
    case 'AccountErasureCancelled':
      return { eraseAfter: null, requestedAt: null };
    default:
      return assertNever(event);
  }
}

/**
 * The checks are made by the API (the password against its argon2 hash, the second factor by
 * its hook) and come in as outcomes; the domain has no clock and no secrets.
 */
export type RequestErasure = Command<
  'RequestErasure',
  Readonly<{
    userId: string;
    email: string;
    passwordGiven: boolean;
    passwordMatches: boolean;
    /** null when the account has no second factor (nothing to check). */
    secondFactor: 'ok' | 'missing' | 'wrong' | null;
    confirmation: string;
    now: string;
  }>
>;
export type CancelErasure = Command<
  'CancelErasure',
  Readonly<{ userId: string; email: string; via: 'restore' | 'sign-in'; now: string }>
>;
export type ErasureCommand = RequestErasure | CancelErasure;

export function decideErasure(command: ErasureCommand, state: ErasureState): ErasureEvent[] {
  switch (command.type) {
    case 'RequestErasure': {
      const d = command.data;
      const errors: FieldError[] = [];
      if (!d.passwordGiven) errors.push({ field: 'password', message: ERASURE_MESSAGES.passwordRequired });
      else if (!d.passwordMatches)
        errors.push({ field: 'password', message: ERASURE_MESSAGES.passwordIncorrect });
      if (d.secondFactor === 'missing')
        errors.push({ field: 'code', message: ERASURE_MESSAGES.codeRequired });
      if (d.secondFactor === 'wrong') errors.push({ field: 'code', message: ERASURE_MESSAGES.codeIncorrect });
      if (d.confirmation !== ERASURE_CONFIRMATION_WORD) {
        errors.push({ field: 'confirmation', message: ERASURE_MESSAGES.confirmation });
      }
      if (errors.length > 0) throw new ValidationError(errors);
      if (state.eraseAfter !== null)
        throw new ConflictError(ERASURE_MESSAGES.alreadyScheduled, 'ERASURE_SCHEDULED');
      const eraseAfter = new Date(Date.parse(d.now) + ERASURE_COOLING_OFF_MS).toISOString();
      return [
        {
          type: 'AccountErasureRequested',
          data: { userId: d.userId, email: d.email, requestedAt: d.now, eraseAfter },
        },
      ];
    }
    case 'CancelErasure': {
      const d = command.data;
      if (state.eraseAfter === null) {
        // Signing in with nothing pending records nothing; "Cancel deletion" then is a conflict.
        if (d.via === 'sign-in') return [];
        throw new ConflictError(ERASURE_MESSAGES.notScheduled, 'ERASURE_NOT_SCHEDULED');
      }
      return [
        {
          type: 'AccountErasureCancelled',
          data: { userId: d.userId, email: d.email, via: d.via, cancelledAt: d.now },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

export const erasureDecider: Decider<ErasureState, ErasureCommand, ErasureEvent> = {
  initialState: initialErasureState,
  evolve: evolveErasure,
  decide: decideErasure,
};
