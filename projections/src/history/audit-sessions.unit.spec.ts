import { describe, expect, it } from 'vitest';
import { groupVisits, visitEntry, visitWords } from './audit-sessions';
import type { HistoryEvent } from './timeline';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 5, minute)).toISOString();
let position = 0;
const read = (request: string, minute: number, grant = 'g1'): HistoryEvent => ({
  position: String(++position).padStart(8, '0'),
  streamId: `audit-${grant}-reads`,
  streamVersion: position,
  type: 'AuditReadRecorded',
  data: {
    grantId: grant,
    auditorUserId: 'rohan',
    auditorEmail: 'rohan@example.in',
    request,
    readAt: at(minute),
  },
  correlationId: 'c',
  recordedAt: at(minute),
});

/** Issue 28, item 9: one timeline entry per auditor visit, in words. */
describe('auditor visits on the owner timeline', () => {
  // What a dashboard visit, a ledger and three loans asked for (about 14 reads).
  const visit = [
    'GET /api/loans/stats',
    'GET /api/transactions/stats',
    'GET /api/ledger/periods',
    'GET /api/ledger',
    'GET /api/ledger?month=11&year=2026',
    'GET /api/banks',
    'GET /api/loans?page=1&limit=10',
    'GET /api/loans/11111111-1111-4111-8111-111111111111',
    'GET /api/loans/11111111-1111-4111-8111-111111111111/amortization',
    'GET /api/loans/22222222-2222-4222-8222-222222222222',
    'GET /api/loans/33333333-3333-4333-8333-333333333333/amortization/versions',
    'GET /api/transactions?page=1&limit=10&sort_by=transaction_date&sort_order=DESC',
    'GET /api/transactions/44444444-4444-4444-8444-444444444444',
    'GET /api/banks/loan-types',
  ];

  it('says what a visit looked at', () => {
    const reads = visit.map((request, i) => ({ request, readAt: at(i) }));
    expect(visitWords(reads)).toBe('the ledger for Nov 2026, 3 loans and the transaction book');
    expect(visitWords([{ request: 'GET /api/ledger?month=10&year=2026', readAt: at(0) }, ...reads])).toBe(
      'the ledger for Oct 2026 and Nov 2026, 3 loans and the transaction book',
    );
    expect(visitWords([{ request: 'GET /api/loans', readAt: at(0) }])).toBe('the loan list');
    expect(visitWords([{ request: 'GET /api/banks', readAt: at(0) }])).toBe('the account');
  });

  it('names the exports, the accounts, their registers, the transfers and the imports', () => {
    const words = (...requests: string[]) =>
      visitWords(requests.map((request) => ({ request, readAt: at(0) })));
    expect(
      words(
        'GET /api/ledger.csv?month=3&year=2026',
        'GET /api/transactions.csv?account_id=none',
        'GET /api/loans/11111111-1111-4111-8111-111111111111/amortization.csv',
      ),
    ).toBe('the ledger for Mar 2026, 1 loan and the transaction book');
    expect(words('GET /api/accounts', 'GET /api/transfers?page=1', 'GET /api/imports')).toBe(
      'the accounts, the transfers and the statement imports',
    );
    expect(
      words('GET /api/accounts', 'GET /api/accounts/a1/register', 'GET /api/accounts/a2/register.csv'),
    ).toBe('2 account registers');
  });

  it('makes one entry of a visit, naming the auditor, and starts another after a pause or another event', () => {
    const first = visit.map((request, i) => read(request, i));
    const later = read('GET /api/history?limit=20', 14 + 31);
    const owners: HistoryEvent = { ...read('x', 46), type: 'TransactionRecorded', streamId: 'txn-1' };
    const last = read('GET /api/export/history', 47);
    const newestFirst = [...first, later, owners, last].reverse();
    const groups = groupVisits(newestFirst);
    expect(groups.map((g) => g.length)).toEqual([1, 1, 1, first.length]);
    const entry = visitEntry(
      groups[3] as HistoryEvent[],
      new Map([['rohan', 'Rohan Iyer']]),
      'audit:g1-reads',
    );
    expect(entry).toMatchObject({
      summary: 'Rohan Iyer viewed the ledger for Nov 2026, 3 loans and the transaction book',
      position: first[first.length - 1]?.position,
      type: 'AuditReadRecorded',
    });
    expect(entry.changes).toContainEqual({ field: 'Pages Read', from: null, to: 14 });
    expect(visitEntry(groups[0] as HistoryEvent[], new Map(), 's').summary).toBe(
      'rohan@example.in viewed the history export',
    );
  });

  it('keeps the reads of two grants apart', () => {
    const groups = groupVisits([read('GET /api/ledger', 2, 'g2'), read('GET /api/ledger', 1, 'g1')]);
    expect(groups).toHaveLength(2);
  });
});
