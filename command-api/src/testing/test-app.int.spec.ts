import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app';

describe.each(['postgres', 'embedded'] as const)('test app in %s mode', (mode) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ mode });
  });
  afterAll(async () => t?.close());

  it('serves the loan-type catalog seeded at boot', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/loans/types',
      headers: await t.signedInHeader('00000000-0000-4000-8000-000000000001'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.loanTypes.length).toBeGreaterThan(0);
    expect(t.platform.config.embedded).toBe(mode === 'embedded');
  });
});
