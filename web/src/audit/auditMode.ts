import { useSyncExternalStore } from 'react';
import { type AuditAccount, storeAuditAccount, storedAuditAccount } from './auditStorage';

export type { AuditAccount } from './auditStorage';

type State = { account: AuditAccount | null; refusals: number };

let state: State = { account: typeof window === 'undefined' ? null : storedAuditAccount(), refusals: 0 };
const listeners = new Set<() => void>();

function update(next: State): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The account being audited, or null (the user's own). Read by the base query for every request. */
export function auditAccount(): AuditAccount | null {
  return state.account;
}

/**
 * Enters (an account) or leaves (null) audit mode. Kept in sessionStorage: a reload stays in the
 * mode, another tab or a new session does not. The caller resets the API cache.
 */
export function setAuditAccount(account: AuditAccount | null): void {
  storeAuditAccount(account);
  update({ account, refusals: 0 });
}

/** The server refused a read under the grant (403 NO_ACCOUNT_ACCESS): the banner checks the grant. */
export function noteAuditRefusal(): void {
  if (state.account) update({ ...state, refusals: state.refusals + 1 });
}

export function useAuditAccount(): AuditAccount | null {
  return useSyncExternalStore(subscribe, () => state.account);
}

/** How many reads the server refused under the current grant. */
export function auditRefusals(): number {
  return state.refusals;
}

export function useAuditRefusals(): number {
  return useSyncExternalStore(subscribe, auditRefusals);
}

/**
 * The one question every screen asks before offering a write: true while auditing another user's
 * account (the as-of mode adds its own past view on top, see history/asOf.tsx).
 */
export function useReadOnly(): boolean {
  return useAuditAccount() !== null;
}

/**
 * Whether a request is about the audited account: the user's own session, profile and grants
 * (`/auth/…`, `/audit-grants`) never carry the account header, which the server refuses on them.
 */
export function readsAuditedAccount(url: string): boolean {
  return !/^\/?(auth|audit-grants)(\/|\?|$)/.test(url);
}

const indiaDate = new Intl.DateTimeFormat('en-IN', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  timeZone: 'Asia/Kolkata',
});

/** A grant's instant (expiry, as-of limit: the end of a day in India) as that day. */
export function formatGrantDate(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? instant : indiaDate.format(date);
}

const indiaTime = new Intl.DateTimeFormat('en-IN', {
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'Asia/Kolkata',
});

/** India is UTC+5:30 all year (no daylight saving): a day there ends at 18:29:59.999 UTC. */
const IST_OFFSET_MS = 330 * 60_000;

/**
 * An as-of limit as the grant set it: a date is the end of that day in India ("the end of
 * 20 Nov 2026"); a date and time keeps its time ("20 Nov 2026, 3:30 pm India time").
 */
export function formatAsOfLimit(instant: string): string {
  const time = Date.parse(instant);
  if (Number.isNaN(time)) return instant;
  const msIntoIndiaDay = (((time + IST_OFFSET_MS) % 86_400_000) + 86_400_000) % 86_400_000;
  const day = indiaDate.format(time);
  return msIntoIndiaDay === 86_400_000 - 1
    ? `the end of ${day}`
    : `${day}, ${indiaTime.format(time)} India time`;
}
