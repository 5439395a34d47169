import { fetchEarly } from '../api/earlyFetch';
import { storedAuditAccount } from '../audit/auditStorage';
import { isTokenExpired, tokenStorage } from '../auth/token';
import { loadLayout, matchScreen } from './screens';

/**
 * Its own entry, first in index.html and importing nothing heavy, so it runs as soon as it is
 * fetched: on a signed-in cold start of a screen, its code, the frame's and its first data (and
 * the session check's profile) start loading while React, Blueprint and the store (main.tsx's
 * graph) are still being evaluated. Reads of an audited account wait for the base query (it
 * names the account).
 */
export function bootScreen(path: string, now = new Date()): void {
  const token = tokenStorage.read()?.token;
  if (!token || isTokenExpired(token, now.getTime())) return;
  const match = matchScreen(path);
  if (!match) return;
  void loadLayout().catch(() => undefined);
  void match.screen.loadPage().catch(() => undefined);
  if (storedAuditAccount()) return;
  fetchEarly(['/api/auth/profile', ...(match.screen.firstData?.(match.params, now) ?? [])], token);
}

bootScreen(window.location.pathname);
