import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { LoginPage } from './page-models/login-page';

/** Issue 16's budget: the built sign-in route loads at most 160 KB of gzipped JavaScript. */
const BUDGET_BYTES = 160 * 1024;

test('the login route loads at most 160 KB of gzipped JavaScript', async ({ page }) => {
  const scripts = new Map<string, Promise<number>>();
  page.on('response', (response) => {
    const url = response.url();
    if (url.endsWith('.js') || (response.headers()['content-type'] ?? '').includes('javascript')) {
      scripts.set(
        url,
        response.body().then((body) => gzipSync(body, { level: 9 }).length),
      );
    }
  });
  await new LoginPage(page).goto();
  await page.waitForLoadState('networkidle');
  const sizes = await Promise.all(scripts.values());
  const total = sizes.reduce((sum, size) => sum + size, 0);
  test.info().annotations.push({
    type: 'login-route-js',
    description: `${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB gzipped`,
  });
  console.log(`login route: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB of gzipped JavaScript`);
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
});
