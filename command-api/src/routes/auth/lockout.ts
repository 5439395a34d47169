/**
 * Wrong-password lockout that a stranger cannot turn against the owner.
 *
 * A plain per-account limit (the old "10 failures per e-mail per 15 minutes") lets anyone lock any
 * owner out for 15 minutes with ten bad guesses. Banks separate the two questions instead (the
 * approach of OWASP's "device cookies" and of most bank sign-ins):
 *
 * - per (client address, account): 10 failures in 15 minutes stop that address from trying that
 *   account for the rest of the window. One client cannot guess on; nobody else is affected.
 * - per account, over every address: after 20 failures in 15 minutes, addresses that have not
 *   signed in to the account before get an exponential back-off (1 s, 2 s, … up to 60 s between
 *   tries, account-wide), so a botnet spreading guesses gets about one try a minute. An address
 *   the owner signed in from in the last 30 days is exempt from this back-off, so the owner at
 *   home is never locked out by strangers; a new address waits at most a minute, never 15.
 *
 * Attempts count as failures when they start (so a burst of parallel guesses is held too); a
 * success takes its own back and clears its address's counter. Unknown addresses are counted the
 * same way as existing ones, so a 429 tells nothing about whether an account exists. The counters
 * live in this process, like the other rate limits.
 */
export const LOGIN_LOCKOUT = {
  windowMs: 15 * 60_000,
  perAddressAndAccount: 10,
  accountBackoffAfter: 20,
  backoffBaseMs: 1000,
  backoffMaxMs: 60_000,
  knownAddressMs: 30 * 24 * 60 * 60_000,
  /** Bound on remembered entries per map; the oldest go first. */
  maxEntries: 100_000,
} as const;

type Counter = { windowStart: number; failures: number; lastFailureAt: number };

export type LockoutDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class LoginLockout {
  private readonly pairs = new Map<string, Counter>();
  private readonly accounts = new Map<string, Counter>();
  private readonly known = new Map<string, number>();

  constructor(private readonly clock: () => Date) {}

  /** Whether `ip` may try a password on `email` now; if so, the try is counted as a failure. */
  begin(ip: string, email: string): LockoutDecision {
    const now = this.clock().getTime();
    const limits = LOGIN_LOCKOUT;
    const pairKey = `${ip}\n${email}`;
    const pair = this.current(this.pairs, pairKey, now);
    if (pair.failures >= limits.perAddressAndAccount) {
      return denied(pair.windowStart + limits.windowMs - now);
    }
    const account = this.current(this.accounts, email, now);
    const knownAt = this.known.get(pairKey);
    const isKnown = knownAt !== undefined && now - knownAt < limits.knownAddressMs;
    if (!isKnown && account.failures >= limits.accountBackoffAfter) {
      const steps = account.failures - limits.accountBackoffAfter;
      const delay = Math.min(limits.backoffMaxMs, limits.backoffBaseMs * 2 ** Math.min(steps, 16));
      const wait = account.lastFailureAt + delay - now;
      if (wait > 0) return denied(wait);
    }
    pair.failures++;
    account.failures++;
    if (!isKnown) account.lastFailureAt = now;
    return { allowed: true };
  }

  /** The try that `begin` counted was the right password. */
  succeeded(ip: string, email: string): void {
    const pairKey = `${ip}\n${email}`;
    this.pairs.delete(pairKey);
    const account = this.accounts.get(email);
    if (account && account.failures > 0) account.failures--;
    this.known.delete(pairKey);
    this.remember(this.known, pairKey, this.clock().getTime());
  }

  private current(map: Map<string, Counter>, key: string, now: number): Counter {
    const counter = map.get(key);
    if (counter && now - counter.windowStart < LOGIN_LOCKOUT.windowMs) return counter;
    const fresh = { windowStart: now, failures: 0, lastFailureAt: 0 };
    map.delete(key);
    this.remember(map, key, fresh);
    return fresh;
  }

  private remember<V>(map: Map<string, V>, key: string, value: V): void {
    map.set(key, value);
    if (map.size > LOGIN_LOCKOUT.maxEntries) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
  }
}

const denied = (waitMs: number): LockoutDecision => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
});
