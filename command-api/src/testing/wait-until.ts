import { vi } from 'vitest';

/**
 * Polls `check` until it gives something (not undefined, null or false) and resolves with it:
 * for work the app hands off (mail, the history read model) that no answer waits for. A check
 * that throws (an `expect`) is polled again; past `timeout` the last error is the failure. A check
 * that asks a server process wants a longer `interval`, so the polling does not crowd its work.
 */
export function waitUntil<T>(
  check: () => T | Promise<T>,
  options: { timeout?: number; interval?: number } = {},
): Promise<Exclude<T, undefined | null | false>> {
  return vi.waitFor(
    async () => {
      const value = await check();
      if (value === undefined || value === null || value === false)
        throw new Error(`not yet: the check gave ${value}`);
      return value as Exclude<T, undefined | null | false>;
    },
    { timeout: options.timeout ?? 10_000, interval: options.interval ?? 25 },
  );
}
