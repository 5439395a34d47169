import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `check` until it gives something (not undefined, null or false) and resolves with it:
 * for work the app hands off (mail, the history read model) that no answer waits for. A check
 * that throws (an `expect`) is polled again; past `timeout` the last error is the failure. A check
 * that asks a server process wants a longer `interval`, so the polling does not crowd its work.
 * Plain timers, not vitest's: the benches build their app with `createTestApp` outside vitest.
 */
export async function waitUntil<T>(
  check: () => T | Promise<T>,
  options: { timeout?: number; interval?: number } = {},
): Promise<Exclude<T, undefined | null | false>> {
  const deadline = Date.now() + (options.timeout ?? 10_000);
  for (;;) {
    let failure: unknown;
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false)
        return value as Exclude<T, undefined | null | false>;
      failure = new Error(`not yet: the check gave ${value}`);
    } catch (error) {
      failure = error;
    }
    if (Date.now() >= deadline) throw failure;
    await sleep(options.interval ?? 25);
  }
}
