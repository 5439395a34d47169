import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const screenshotDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

export const viewports = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 390, height: 844 },
} as const;

export function screenshotPath(name: string): string {
  mkdirSync(screenshotDir, { recursive: true });
  return path.join(screenshotDir, `${name}.png`);
}

/**
 * No serious or critical axe-core violation on the screen once it has settled: a dialog still
 * fading in (Blueprint's overlay transition) has text of too little contrast for a moment.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) =>
          a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
  const results = await new AxeBuilder({ page })
    // A name that does not hold the visible words (WCAG 2.5.3) is in axe's experimental set, off
    // by default: a voice-control user says what they see. (Options first: they replace the
    // options object, and withTags sets the tags in it.)
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  // Soft: one screen's violations do not hide the next screen's (or its screenshot).
  expect.soft(blocking, `accessibility of ${screen}`).toEqual([]);
}

/**
 * Saves the screen at 1280×800 and 390×844 as e2e/screenshots/{screen}-{desktop|mobile}.png,
 * checking accessibility at each size, then restores the desktop size.
 */
export async function captureScreen(page: Page, screen: string, ready?: () => Promise<void>): Promise<void> {
  for (const [name, size] of Object.entries(viewports)) {
    await page.setViewportSize(size);
    if (ready) await ready();
    // Icons arrive as small fetches after render: let them land before the picture is taken.
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => document.fonts.ready);
    // A full-page picture taken while scrolled draws the sticky header mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAccessible(page, `${screen} at ${name}`);
    await page.screenshot({ path: screenshotPath(`${screen}-${name}`), fullPage: true });
  }
  await page.setViewportSize(viewports.desktop);
}
