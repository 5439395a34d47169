import { fetchEarly } from '../api/earlyFetch';
import { storedAuditAccount } from '../audit/auditStorage';
import { isTokenExpired, tokenStorage } from '../auth/token';
import { matchScreenPath, SCREEN_CHUNKS_ID, type ScreenChunks, screenPaths } from './screenPaths';

function readScreenChunks(): ScreenChunks | null {
  const text = document.getElementById(SCREEN_CHUNKS_ID)?.textContent;
  if (!text) return null; // the dev server: no build, no table
  try {
    return JSON.parse(text) as ScreenChunks;
  } catch {
    return null;
  }
}

/**
 * Asks for a screen's scripts (modulepreload: fetched and compiled, run when imported) and
 * stylesheets (preload: fetched; Vite's loader links them after the app's own stylesheet, which
 * they follow in the cascade, when the page's chunk is imported). Both in cors mode, as Vite's
 * loader asks, so its requests find these in the cache.
 */
function preloadFiles(files: readonly string[]): void {
  for (const file of files) {
    const link = document.createElement('link');
    if (file.endsWith('.css')) {
      link.rel = 'preload';
      link.as = 'style';
    } else link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = `/${file}`;
    document.head.appendChild(link);
  }
}

/**
 * Inlined at the top of index.html by the build (kosh-boot-inline in vite.config.ts), so it runs
 * as the page's HTML arrives: on a signed-in cold start, its screen's first data (and the session
 * check's profile) and the frame's and the page's chunks start loading before the app's own
 * scripts and stylesheet are asked for, let alone evaluated. Imports nothing with a chunk of its
 * own (it is built apart from the app) and exports nothing (no global). Reads of an audited account wait for the base query (it
 * names the account).
 */
function bootScreen(path: string, now = new Date()): void {
  const token = tokenStorage.read()?.token;
  if (!token || isTokenExpired(token, now.getTime())) return;
  const match = matchScreenPath(path, screenPaths);
  if (!match) return;
  if (!storedAuditAccount())
    fetchEarly(['/api/auth/profile', ...(match.screen.firstData?.(match.params, now) ?? [])], token);
  const chunks = readScreenChunks();
  if (chunks) {
    const indexes = new Set([...chunks.layout, ...(chunks.screens[match.screen.path] ?? [])]);
    preloadFiles([...indexes].flatMap((i) => chunks.files[i] ?? []));
  }
}

bootScreen(window.location.pathname);
