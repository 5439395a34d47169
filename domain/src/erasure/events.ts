import type { DomainEvent } from '../shared/messages';

/**
 * Events of an `erasure-{userId}` stream (issue 32): the owner asked to have their account
 * erased after a cooling-off period, or took it back. Kept apart from `user-{id}` so that a
 * request never contends with sign-in and profile writes. Instants are ISO-8601 UTC strings.
 * The whole stream goes with the account when it is erased (ARCHITECTURE.md "Erasure").
 */
export type AccountErasureRequested = DomainEvent<
  'AccountErasureRequested',
  Readonly<{
    userId: string;
    /** Where the "scheduled" mail goes (the address the account had then). */
    email: string;
    requestedAt: string;
    /** The account is erased at or after this instant unless the request is cancelled first. */
    eraseAfter: string;
  }>
>;

export type AccountErasureCancelled = DomainEvent<
  'AccountErasureCancelled',
  Readonly<{
    userId: string;
    email: string;
    /** 'restore': POST /api/account/restore; 'sign-in': the owner signed in during the period. */
    via: 'restore' | 'sign-in';
    cancelledAt: string;
  }>
>;

export type ErasureEvent = AccountErasureRequested | AccountErasureCancelled;

export const ERASURE_EVENT_TYPES = [
  'AccountErasureRequested',
  'AccountErasureCancelled',
] as const satisfies readonly ErasureEvent['type'][];

export const erasureStreamId = (userId: string): string => `erasure-${userId}`;

/** The cooling-off period: signing in (or "Cancel deletion") within it keeps the account. */
export const ERASURE_COOLING_OFF_DAYS = 7;
export const ERASURE_COOLING_OFF_MS = ERASURE_COOLING_OFF_DAYS * 24 * 60 * 60 * 1000;

/** The word the owner types to confirm. */
export const ERASURE_CONFIRMATION_WORD = 'DELETE';

/**
 * The log's own record that an account was erased, on the `erased-accounts` stream (owned by no
 * one, chained to no one): a keyed hash of the id and a count, nothing personal. It also keeps the
 * log's end past the erased events, so a rebuild reaches every live checkpoint.
 */
export type AccountErased = DomainEvent<
  'AccountErased',
  Readonly<{ subjectHash: string; eventsErased: number; erasedAt: string }>
>;

export const ERASED_ACCOUNTS_STREAM = 'erased-accounts';
