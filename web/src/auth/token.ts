/**
 * One storage key for the token, read at start-up exactly as sign-in writes it (the older
 * product looked under a different key at start-up and lost every session on reload).
 */
export const TOKEN_KEY = 'kosh.token';

/** The `exp` claim in milliseconds, or null when the token cannot be decoded or has none. */
export function tokenExpiresAt(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** Spec section 4: expired when `exp` is past or the token cannot be decoded. */
export function isTokenExpired(token: string, now: number): boolean {
  const expiresAt = tokenExpiresAt(token);
  return expiresAt === null || expiresAt <= now;
}

export type StoredToken = { token: string; remember: boolean };

/** Remember-me keeps the token in localStorage, otherwise sessionStorage; storing one clears the other. */
export const tokenStorage = {
  read(): StoredToken | null {
    const remembered = localStorage.getItem(TOKEN_KEY);
    if (remembered) return { token: remembered, remember: true };
    const session = sessionStorage.getItem(TOKEN_KEY);
    return session ? { token: session, remember: false } : null;
  },
  write({ token, remember }: StoredToken): void {
    (remember ? localStorage : sessionStorage).setItem(TOKEN_KEY, token);
    (remember ? sessionStorage : localStorage).removeItem(TOKEN_KEY);
  },
  clear(): void {
    localStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(TOKEN_KEY);
  },
};
