import { randomUUID } from 'node:crypto';
import { CATALOG_MESSAGES, SEED_BANKS, SEED_LOAN_TYPES } from '@kosh/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../../commands/seed-catalog';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { LOAN_QUERY_MESSAGES } from '../loans/list-query';

let t: TestApp;
const alice = randomUUID();
const bob = randomUUID();

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('seeding', () => {
  it('is a no-op the second time (fixed event ids)', async () => {
    const before = await t.platform.eventStore.readAll({ limit: 10_000 });
    await seedCatalog(t.platform.eventStore, new Date('2026-02-01T00:00:00.000Z'));
    const after = await t.platform.eventStore.readAll({ limit: 10_000 });
    expect(after.length).toBe(before.length);
    expect(before.length).toBe(SEED_BANKS.length + SEED_LOAN_TYPES.length);
  });
});

describe('GET /api/banks', () => {
  it('lists the seeded lenders by name, 50 per page by default', async () => {
    const res = await t.as(alice).get('/api/banks');
    expect(res.status).toBe(200);
    const names = res.body.data.map((b: { bank_name: string }) => b.bank_name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, 'en')));
    expect(names).toContain('State Bank of India');
    expect(res.body.data[0]).toEqual({
      id: expect.any(Number),
      bank_name: 'Aditya Birla Capital',
      branch_name: 'Head Office, Mumbai',
      is_custom: false,
    });
    expect(res.body.meta.pagination).toEqual({
      page: 1,
      limit: 50,
      total_items: SEED_BANKS.length,
      total_pages: 1,
    });
  });

  it('pages and sorts', async () => {
    const res = await t.as(alice).get('/api/banks?page=2&limit=10&sortBy=id&sortOrder=DESC');
    expect(res.body.data.map((b: { id: number }) => b.id)).toEqual([20, 19, 18, 17, 16, 15, 14, 13, 12, 11]);
    expect(res.body.meta.pagination).toEqual({
      page: 2,
      limit: 10,
      total_items: SEED_BANKS.length,
      total_pages: 3,
    });
  });

  it.each([
    ['?limit=101', 'limit', LOAN_QUERY_MESSAGES.bankLimit],
    ['?limit=0', 'limit', LOAN_QUERY_MESSAGES.bankLimit],
    ['?page=x', 'page', LOAN_QUERY_MESSAGES.page],
    ['?sortBy=user_id', 'sortBy', LOAN_QUERY_MESSAGES.bankSortBy],
    ['?sortOrder=up', 'sortOrder', LOAN_QUERY_MESSAGES.sortOrder],
  ])('answers 422 for %s', async (query, field, message) => {
    const res = await t.as(alice).get(`/api/banks${query}`);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field, message }]);
  });

  it('answers one bank, 404 for an unknown id', async () => {
    expect((await t.as(alice).get('/api/banks/12')).body.data.bank).toEqual({
      id: 12,
      bank_name: 'HDFC Bank',
      branch_name: 'Head Office, Mumbai',
      is_custom: false,
    });
    for (const id of ['9999', '0', 'abc']) {
      const res = await t.as(alice).get(`/api/banks/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(CATALOG_MESSAGES.bankNotFound);
    }
  });
});

describe('POST /api/banks', () => {
  it('adds a bank only its owner sees', async () => {
    const res = await t.as(alice).post('/api/banks', {
      bank_name: ' Saraswat Co-operative Bank ',
      branch_name: 'Dadar',
    });
    expect(res.status).toBe(201);
    const bank = res.body.data.bank;
    expect(bank).toEqual({
      id: expect.any(Number),
      bank_name: 'Saraswat Co-operative Bank',
      branch_name: 'Dadar',
      is_custom: true,
    });
    expect(bank.id).toBeGreaterThanOrEqual(1001);

    expect((await t.as(alice).get(`/api/banks/${bank.id}`)).status).toBe(200);
    expect((await t.as(bob).get(`/api/banks/${bank.id}`)).status).toBe(404);
    const alicesList = await t.as(alice).get('/api/banks?limit=100');
    expect(alicesList.body.meta.pagination.total_items).toBe(SEED_BANKS.length + 1);
    const bobsList = await t.as(bob).get('/api/banks?limit=100');
    expect(bobsList.body.data.map((b: { id: number }) => b.id)).not.toContain(bank.id);
  });

  it('needs a bank name', async () => {
    const res = await t.as(alice).post('/api/banks', { branch_name: 'Dadar' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'bank_name', message: CATALOG_MESSAGES.bankNameRequired }]);
    const long = await t.as(alice).post('/api/banks', { bank_name: 'x'.repeat(101) });
    expect(long.body.errors).toEqual([{ field: 'bank_name', message: CATALOG_MESSAGES.bankNameTooLong }]);
  });
});

describe('loan types', () => {
  it('lists the seeded types under data.loanTypes on both paths', async () => {
    for (const url of ['/api/banks/loan-types', '/api/loans/types']) {
      const res = await t.as(alice).get(url);
      expect(res.status).toBe(200);
      const names = res.body.data.loanTypes.map((type: { type_name: string }) => type.type_name);
      expect(names).toEqual(expect.arrayContaining(['Home Loan', 'Credit Card EMI', 'Two-Wheeler Loan']));
      expect(names).toHaveLength(SEED_LOAN_TYPES.length);
    }
  });

  it('adds a type only its owner sees, and answers one type or 404', async () => {
    const res = await t.as(bob).post('/api/banks/loan-types', { type_name: 'Tractor Loan' });
    expect(res.status).toBe(201);
    const type = res.body.data.loanType;
    expect(type).toEqual({ id: expect.any(Number), type_name: 'Tractor Loan', is_custom: true });
    expect((await t.as(bob).get(`/api/banks/loan-types/${type.id}`)).body.data.loanType).toEqual(type);
    expect((await t.as(alice).get(`/api/banks/loan-types/${type.id}`)).status).toBe(404);
    expect((await t.as(alice).get('/api/loans/types')).body.data.loanTypes).toHaveLength(
      SEED_LOAN_TYPES.length,
    );
    expect((await t.as(bob).get('/api/loans/types')).body.data.loanTypes).toHaveLength(
      SEED_LOAN_TYPES.length + 1,
    );
    expect((await t.as(alice).get('/api/banks/loan-types/1')).body.data.loanType).toEqual({
      id: 1,
      type_name: 'Home Loan',
      is_custom: false,
    });
  });

  it('needs a type name', async () => {
    const res = await t.as(bob).post('/api/banks/loan-types', { type_name: '  ' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'type_name', message: CATALOG_MESSAGES.typeNameRequired }]);
  });
});
