import { afterEach, describe, expect, it, vi } from 'vitest';

const account = {
  grantId: 'g-1',
  ownerUserId: 'owner-1',
  ownerName: 'Rohan Verma',
  expiresAt: '2026-12-24T18:29:59.999Z',
  asOfLimit: null,
};

/** A sessionStorage of one tab; `load` imports the module afresh, as a reload does. */
function tab() {
  const items = new Map<string, string>();
  vi.stubGlobal('window', {
    sessionStorage: {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => items.set(key, value),
      removeItem: (key: string) => items.delete(key),
    },
  });
  return {
    items,
    load: async () => {
      vi.resetModules();
      return import('./auditMode');
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('audit mode (issue 14)', () => {
  it('names the audited account on reads of it, never on the user’s own session, profile or grants', async () => {
    const { readsAuditedAccount } = await tab().load();
    for (const url of ['/ledger', 'transactions?page=2', '/loans/abc/history', '/history', '/export/history'])
      expect(readsAuditedAccount(url), url).toBe(true);
    for (const url of [
      '/auth/profile',
      'auth/login',
      '/audit-grants',
      '/audit-grants/abc',
      '/audit-grants?x=1',
    ])
      expect(readsAuditedAccount(url), url).toBe(false);
    // Only whole path segments count.
    expect(readsAuditedAccount('/authors')).toBe(true);
  });

  it('survives a reload of the tab and ends when left', async () => {
    const { load, items } = tab();
    const first = await load();
    expect(first.auditAccount()).toBeNull();
    first.setAuditAccount(account);
    expect(first.auditAccount()).toEqual(account);
    const reloaded = await load();
    expect(reloaded.auditAccount()).toEqual(account);
    reloaded.setAuditAccount(null);
    expect(items.size).toBe(0);
    expect((await load()).auditAccount()).toBeNull();
  });

  it('ignores a stored value that is not an account', async () => {
    const { load, items } = tab();
    items.set('kosh.auditAccount', '{"ownerUserId": 42}');
    expect((await load()).auditAccount()).toBeNull();
    items.set('kosh.auditAccount', 'not json');
    expect((await load()).auditAccount()).toBeNull();
  });

  it('counts refusals only while auditing, from zero for each account', async () => {
    const mode = await tab().load();
    mode.noteAuditRefusal();
    expect(mode.auditRefusals()).toBe(0);
    mode.setAuditAccount(account);
    mode.noteAuditRefusal();
    mode.noteAuditRefusal();
    expect(mode.auditRefusals()).toBe(2);
    mode.setAuditAccount({ ...account, grantId: 'g-2' });
    expect(mode.auditRefusals()).toBe(0);
  });

  it('shows a grant’s instant as its day in India', async () => {
    const { formatGrantDate } = await tab().load();
    expect(formatGrantDate('2026-12-24T18:29:59.999Z')).toBe('24 Dec 2026');
    expect(formatGrantDate('nonsense')).toBe('nonsense');
  });

  it('states an as-of limit as the grant set it: a day is its end, a time keeps its time', async () => {
    const { formatAsOfLimit } = await tab().load();
    // as_of_limit "2026-11-20": the server keeps the end of that day in India.
    expect(formatAsOfLimit('2026-11-20T18:29:59.999Z')).toBe('the end of 20 Nov 2026');
    // as_of_limit "2026-11-20T15:30" (India time).
    expect(formatAsOfLimit('2026-11-20T10:00:00.000Z')).toBe('20 Nov 2026, 3:30 pm India time');
    expect(formatAsOfLimit('nonsense')).toBe('nonsense');
  });
});
