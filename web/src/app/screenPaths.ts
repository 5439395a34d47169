/**
 * The signed-in screens (spec section 2): path pattern and the reads each shows first, in Switch
 * order. Light on purpose (no React, no store, no imports): boot.ts, inlined in index.html, reads
 * it before anything else loads; screens.ts adds each screen's code. Add a screen here and its
 * page in screens.ts.
 */
export type ScreenPath = {
  path: string;
  /** GET paths of the screen's first data, as the base query will ask for them. */
  firstData?: (params: Readonly<Record<string, string>>, now: Date) => string[];
};

/** The id of index.html's table of each screen's chunks, which the build writes and boot.ts reads. */
export const SCREEN_CHUNKS_ID = 'kosh-screen-chunks';

/**
 * That table: the files (paths under /) of a screen's code beyond what index.html loads itself,
 * the frame's (`layout`) and each screen path's, as indexes into `files`.
 */
export type ScreenChunks = { files: string[]; layout: number[]; screens: Record<string, number[]> };

/** transactionsApi's first page (TRANSACTION_PAGE_SIZE rows, newest first) and the book's totals. */
const transactionBook = () => [
  '/api/transactions?page=1&limit=10&sort_by=transaction_date&sort_order=DESC',
  '/api/transactions/stats',
];
/** ledgerApi's prefetchLedger: this month (the browser's), and the periods. */
const ledgerMonth = (_params: unknown, now: Date) => [
  `/api/ledger?month=${now.getMonth() + 1}&year=${now.getFullYear()}`,
  '/api/ledger/periods',
];
const loanSchedule = ({ id }: Readonly<Record<string, string>>) => [
  `/api/loans/${encodeURIComponent(id ?? '')}`,
  `/api/loans/${encodeURIComponent(id ?? '')}/amortization`,
];

/** The dashboard's cards (loansApi's getLoanStats) and its loans today (dashboardApi's first page). */
const dashboard = () => ['/api/loans/stats', '/api/loans?page=1&limit=50&sortBy=created_at&sortOrder=DESC'];

export const screenPaths: readonly ScreenPath[] = [
  { path: '/dashboard', firstData: dashboard },
  { path: '/loans' },
  { path: '/loans/create' },
  { path: '/loans/:id' },
  { path: '/loans/:id/edit' },
  { path: '/loans/:id/amortization', firstData: loanSchedule },
  { path: '/loans/:id/certificate' },
  { path: '/transactions', firstData: transactionBook },
  { path: '/ledger', firstData: ledgerMonth },
  { path: '/accounts' },
  { path: '/accounts/:id' },
  { path: '/import' },
  { path: '/recurring' },
  { path: '/budgets' },
  { path: '/reports' },
  { path: '/categories' },
  { path: '/rules' },
  { path: '/history' },
  { path: '/profile' },
  { path: '/change-password' },
  { path: '/settings' },
  { path: '/audits' },
];

/**
 * The screen of `list` a path shows and its params, matched as wouter matches these patterns
 * (literal segments and `:name` segments, the first match in table order wins).
 */
export function matchScreenPath<S extends ScreenPath>(
  path: string,
  list: readonly S[],
): { screen: S; params: Record<string, string> } | null {
  const parts = path.replace(/\/+$/, '').split('/');
  for (const candidate of list) {
    const pattern = candidate.path.split('/');
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((segment, i) => {
      const part = parts[i] ?? '';
      if (!segment.startsWith(':')) return segment === part;
      if (part === '') return false;
      try {
        params[segment.slice(1)] = decodeURIComponent(part);
      } catch {
        return false;
      }
      return true;
    });
    if (matches) return { screen: candidate, params };
  }
  return null;
}
