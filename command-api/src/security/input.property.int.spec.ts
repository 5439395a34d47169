import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataUrl, PNG_1PX } from '../routes/auth/testing/fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { eventCount, expectEnvelope, MODES, signUp } from './testing/attack-kit';

type Endpoint = {
  method: 'POST' | 'PUT' | 'DELETE';
  /** `:id` is replaced by a generated id (the caller's own, a stranger's, or garbage). */
  path: string;
  /** The body fields the route reads, so generated values land where the handler looks. */
  fields: string[];
  /**
   * A body that passes validation (or nearly): one field at a time is replaced, so a bad value
   * reaches the handler and the store instead of stopping at the first other field's 422.
   */
  valid?: Record<string, unknown>;
};

const LOAN_FIELDS = [
  'bank_id',
  'loan_type_id',
  'account_number',
  'short_detail',
  'principal_amount',
  'interest_rate',
  'is_interest_rate_yearly',
  'duration',
  'is_duration_yearly',
  'start_date',
  'end_date',
  'processing_fee',
  'has_gst',
  'gst_percentage',
];
const TRANSACTION_FIELDS = ['notes', 'transaction_type', 'transaction_date', 'amount'];

const VALID_LOAN = {
  bank_id: 1,
  loan_type_id: 1,
  account_number: 'SBI0012345',
  principal_amount: 250000,
  interest_rate: 8.75,
  duration: 3,
  start_date: '2024-06-01',
};
const VALID_TRANSACTION = {
  notes: 'Salary',
  transaction_type: 'C',
  transaction_date: '2025-01-31',
  amount: 900,
};
const PASSWORD = 'Secret12';
const LINK_TOKEN = 'A'.repeat(43);

/** Every write route under command-api/src/routes. */
const writeEndpoints = (email: string): Endpoint[] => [
  {
    method: 'POST',
    path: '/api/auth/register',
    fields: ['first_name', 'last_name', 'email', 'password'],
    valid: { first_name: 'Asha', last_name: 'Rao', email: 'asha.prop@example.in', password: PASSWORD },
  },
  { method: 'POST', path: '/api/auth/verify-email', fields: ['token'], valid: { token: LINK_TOKEN } },
  { method: 'POST', path: '/api/auth/resend-verification', fields: ['email'], valid: { email } },
  {
    method: 'POST',
    path: '/api/auth/login',
    fields: ['email', 'password', 'remember_me'],
    valid: { email, password: PASSWORD, remember_me: true },
  },
  { method: 'POST', path: '/api/auth/forgot-password', fields: ['email'], valid: { email } },
  {
    method: 'POST',
    path: '/api/auth/reset-password',
    fields: ['token', 'password'],
    valid: { token: LINK_TOKEN, password: PASSWORD },
  },
  {
    method: 'PUT',
    path: '/api/auth/profile',
    fields: ['first_name', 'last_name', 'email'],
    valid: { first_name: 'Mallory', last_name: 'Tester', email },
  },
  // Never the right current password: a changed password would end this session's token.
  {
    method: 'PUT',
    path: '/api/auth/change-password',
    fields: ['current_password', 'new_password'],
    valid: { current_password: 'Wrong1234', new_password: 'Secret34' },
  },
  {
    method: 'POST',
    path: '/api/auth/profile-picture',
    fields: ['profile_picture'],
    valid: { profile_picture: dataUrl(PNG_1PX) },
  },
  { method: 'DELETE', path: '/api/auth/profile-picture', fields: [] },
  { method: 'POST', path: '/api/transactions', fields: TRANSACTION_FIELDS, valid: VALID_TRANSACTION },
  { method: 'PUT', path: '/api/transactions/:id', fields: TRANSACTION_FIELDS, valid: VALID_TRANSACTION },
  { method: 'DELETE', path: '/api/transactions/:id', fields: [] },
  { method: 'POST', path: '/api/loans', fields: LOAN_FIELDS, valid: VALID_LOAN },
  { method: 'PUT', path: '/api/loans/:id', fields: LOAN_FIELDS, valid: VALID_LOAN },
  { method: 'DELETE', path: '/api/loans/:id', fields: [] },
  { method: 'POST', path: '/api/loans/:id/amortization/regenerate', fields: [] },
  {
    method: 'POST',
    path: '/api/banks',
    fields: ['bank_name', 'branch_name'],
    valid: { bank_name: 'Prop Bank', branch_name: 'Pune' },
  },
  { method: 'POST', path: '/api/banks/loan-types', fields: ['type_name'], valid: { type_name: 'Prop loan' } },
  // Issue 32: never the right password (an erasure would be scheduled; nothing else may be).
  {
    method: 'DELETE',
    path: '/api/account',
    fields: ['password', 'code', 'confirmation'],
    valid: { password: 'Wrong1234', confirmation: 'DELETE' },
  },
  { method: 'POST', path: '/api/account/restore', fields: [] },
];

/** Runs per endpoint and mode: 21 endpoints × 2 modes × 30 runs take about half a minute. */
const RUNS = 30;

/** Any UTF-16 code unit, NUL and lone surrogate halves included (fc's 'binary' leaves those out). */
const codeUnit = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  fc.constant('\u0000'),
);

const nastyString = fc.oneof(
  fc.string({ unit: codeUnit, maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.constantFrom(
    'x'.repeat(100_000),
    '9'.repeat(400),
    '١٢٣٤٥',
    '2024-02-30',
    '9999-12-31',
    '+275760-09-13',
    '1e309',
    '-0',
    'NaN',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    'alice@example.in,x@example.in',
    'Alice <alice@example.in>',
    'a@b.in\r\nBcc: x@y.in',
    'C',
    'D',
    '1',
  ),
);

const nastyNumber = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(2 ** 31, 2 ** 53 + 1, 1e308, -1e308, 5e-324, 0.1 + 0.2, 99999999999.999),
);

const nastyValue = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 3, arbitrary: nastyNumber },
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2, stringUnit: codeUnit }), { maxLength: 4 }),
  fc.jsonValue({ maxDepth: 4, stringUnit: codeUnit }),
);

const bodyFor = ({ fields, valid }: Endpoint) =>
  fc.oneof(
    {
      weight: 2,
      arbitrary: fc.record(Object.fromEntries(fields.map((field) => [field, nastyValue])), {
        requiredKeys: [],
      }),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 5, stringUnit: codeUnit }) },
    ...(valid && fields.length > 0
      ? [
          {
            weight: 3,
            arbitrary: fc
              .tuple(fc.constantFrom(...fields), nastyValue)
              .map(([field, value]) => ({ ...valid, [field]: value })),
          },
        ]
      : []),
  );

/** A path segment: UTF-8 escaped, or the bytes of a lone surrogate (not UTF-8) when it has one. */
const pathSegment = (ownId: string) =>
  fc.oneof(
    fc.constant(ownId),
    fc.uuid(),
    fc.string({ unit: codeUnit, maxLength: 300 }).map((s) => {
      try {
        return encodeURIComponent(s) || '0';
      } catch {
        return '%ED%A0%80';
      }
    }),
  );

/**
 * Issue 10, "not done until": arbitrary JSON at every write endpoint. Every answer is a 2xx or a
 * 4xx in the envelope, never a 5xx, and a 4xx leaves the event log as it was. Rate limits are off
 * here so the handlers, not the limiter, answer the runs (network.security.int.spec.ts covers them).
 */
describe.each(MODES)('arbitrary JSON at every write endpoint (%s)', (mode) => {
  let t: TestApp;
  let auth: { authorization: string };
  let email = '';
  const ownIds: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ mode, env: { RATE_LIMIT_ENABLED: 'false' } });
    const user = await signUp(t);
    auth = { authorization: `Bearer ${user.token}` };
    email = user.email;
    const loan = await t.app.inject({
      method: 'POST',
      url: '/api/loans',
      headers: auth,
      payload: VALID_LOAN,
    });
    expect(loan.statusCode, loan.body).toBe(201);
    ownIds.loans = loan.json().data.loan.id;
    const entry = await t.app.inject({
      method: 'POST',
      url: '/api/transactions',
      headers: auth,
      payload: VALID_TRANSACTION,
    });
    expect(entry.statusCode, entry.body).toBe(201);
    ownIds.transactions = entry.json().data.transaction.id;
  });

  afterAll(async () => {
    await t?.close();
  });

  it.each(writeEndpoints('').map((e) => [`${e.method} ${e.path}`, e.method, e.path] as const))(
    '%s answers 2xx or a 4xx envelope that appends nothing',
    async (_name, method, path) => {
      const endpoint = writeEndpoints(email).find((e) => e.method === method && e.path === path) as Endpoint;
      const resource = endpoint.path.split('/')[2] ?? '';
      const ids = endpoint.path.includes(':id') ? pathSegment(ownIds[resource] ?? '') : fc.constant('');
      await fc.assert(
        fc.asyncProperty(bodyFor(endpoint), ids, async (body, id) => {
          const before = await eventCount(t);
          const response = await t.app.inject({
            method: endpoint.method,
            url: endpoint.path.replace(':id', id),
            headers: { ...auth, 'content-type': 'application/json' },
            payload: JSON.stringify(body),
          });
          expect(response.statusCode, response.body).toBeLessThan(500);
          if (response.statusCode >= 400) {
            expectEnvelope(response, response.statusCode);
            expect(await eventCount(t)).toBe(before);
          } else {
            expect(response.json().success).toBe(true);
          }
        }),
        { numRuns: RUNS },
      );
    },
  );
});
