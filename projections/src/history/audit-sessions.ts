import type { HistoryEvent, TimelineEntry } from './timeline';

/**
 * An auditor's visit on the owner's timeline: one entry for the reads of one grant that follow
 * each other (nothing of the owner's between them, none more than SESSION_GAP_MS apart), said in
 * words ("Rohan Iyer viewed the ledger for Nov 2026, 3 loans and the transaction book"), where
 * each read used to be its own entry with its raw URL (a dashboard visit made about 14).
 */
export const SESSION_GAP_MS = 30 * 60 * 1000;

const isRead = (e: HistoryEvent) => e.type === 'AuditReadRecorded';

/** Whether `older` (read just before) belongs to the visit whose oldest read so far is `newer`. */
export function sameVisit(newer: HistoryEvent, older: HistoryEvent): boolean {
  return (
    isRead(newer) &&
    isRead(older) &&
    newer.streamId === older.streamId &&
    Date.parse(newer.recordedAt) - Date.parse(older.recordedAt) <= SESSION_GAP_MS
  );
}

/** Timeline events, newest first, cut into visits (single events stand alone). */
export function groupVisits(events: readonly HistoryEvent[]): HistoryEvent[][] {
  const groups: HistoryEvent[][] = [];
  for (const event of events) {
    const current = groups[groups.length - 1];
    const oldest = current?.[current.length - 1];
    if (current && oldest && sameVisit(oldest, event)) current.push(event);
    else groups.push([event]);
  }
  return groups;
}

const MONTH = new Intl.DateTimeFormat('en-IN', { month: 'short', year: 'numeric', timeZone: 'UTC' });
/** The month a ledger read without month or year shows: the month it was read in, in India. */
const INDIA_MONTH = new Intl.DateTimeFormat('en-CA', {
  year: 'numeric',
  month: '2-digit',
  timeZone: 'Asia/Kolkata',
});

function ledgerMonth(query: URLSearchParams, readAt: string): string {
  const [year, month] = INDIA_MONTH.format(new Date(readAt)).split('-');
  const y = Number(query.get('year') ?? year);
  const m = Number(query.get('month') ?? month);
  if (!Number.isInteger(y) || !Number.isInteger(m) || m < 1 || m > 12) return '';
  return MONTH.format(new Date(Date.UTC(y, m - 1, 1))).replace('Sept', 'Sep');
}

const list = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** What a visit's reads looked at, in words: "the ledger for Nov 2026, 3 loans and the transaction book". */
export function visitWords(reads: readonly { request: string; readAt: string }[]): string {
  const months: string[] = [];
  const loans = new Set<string>();
  const registers = new Set<string>();
  const seen = new Set<string>();
  for (const { request, readAt } of reads) {
    const target = request.replace(/^[A-Z]+ /, '');
    const url = new URL(target, 'http://kosh.invalid');
    const path = url.pathname.replace(/\/+$/, '');
    const loan = /^\/api\/loans\/([^/]+)/.exec(path)?.[1];
    if (path === '/api/ledger' || path === '/api/ledger.csv') {
      const month = ledgerMonth(url.searchParams, readAt);
      if (month && !months.includes(month)) months.push(month);
    } else if (loan && loan !== 'stats') loans.add(loan);
    else if (path === '/api/loans' || path === '/api/loans/stats') seen.add('loans');
    else if (path.startsWith('/api/transactions')) seen.add('transactions');
    else if (path === '/api/accounts') seen.add('accounts');
    else if (/^\/api\/accounts\/[^/]+/.test(path)) registers.add(path.split('/')[3] as string);
    else if (path.startsWith('/api/transfers')) seen.add('transfers');
    else if (path.startsWith('/api/imports')) seen.add('imports');
    else if (path.startsWith('/api/history')) seen.add('history');
    else if (path === '/api/export/history') seen.add('export');
  }
  const parts: string[] = [];
  if (months.length > 0) parts.push(`the ledger for ${list(months)}`);
  if (loans.size > 0) parts.push(loans.size === 1 ? '1 loan' : `${loans.size} loans`);
  else if (seen.has('loans')) parts.push('the loan list');
  if (seen.has('transactions')) parts.push('the transaction book');
  if (registers.size > 0)
    parts.push(registers.size === 1 ? '1 account register' : `${registers.size} account registers`);
  else if (seen.has('accounts')) parts.push('the accounts');
  if (seen.has('transfers')) parts.push('the transfers');
  if (seen.has('imports')) parts.push('the statement imports');
  if (seen.has('history')) parts.push('the history');
  if (seen.has('export')) parts.push('the history export');
  return parts.length > 0 ? list(parts) : 'the account';
}

/**
 * The one entry of a visit (its reads newest first), at its latest read: who viewed what, and
 * when the visit began and how many reads it made.
 */
export function visitEntry(
  reads: readonly HistoryEvent[],
  auditorNames: ReadonlyMap<string, string>,
  stream: string,
): TimelineEntry {
  const latest = reads[0] as HistoryEvent;
  const first = reads[reads.length - 1] as HistoryEvent;
  const data = latest.data as { auditorUserId?: unknown; auditorEmail?: unknown };
  const email = String(data.auditorEmail ?? '');
  const who = auditorNames.get(String(data.auditorUserId)) ?? (email || 'An auditor');
  const words = visitWords(
    reads.map((r) => ({
      request: String(r.data.request ?? ''),
      readAt: String(r.data.readAt ?? r.recordedAt),
    })),
  );
  return {
    position: latest.position,
    recordedAt: latest.recordedAt,
    stream,
    type: latest.type,
    summary: `${who} viewed ${words}`,
    changes: [
      { field: 'Auditor Email', from: null, to: email || null },
      { field: 'Visit Began', from: null, to: first.recordedAt },
      { field: 'Pages Read', from: null, to: reads.length },
    ],
    correlationId: latest.correlationId,
  };
}
