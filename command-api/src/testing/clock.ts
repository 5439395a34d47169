/** A clock a spec moves: `createTestApp({ clock })`, then `clock.advance(60_000)`. */
export type TestClock = (() => Date) & {
  /** Moves the clock on by `ms` and returns the new instant. */
  advance(ms: number): Date;
  /** Puts the clock at `instant` (an ISO time). */
  set(instant: string): void;
};

/**
 * Starts at `start` (an ISO time). With `step`, each read is that many milliseconds after the one
 * before, so writes in a row get distinct, ordered times (`created_at` orders lists); without,
 * it stands still between moves, so a command and the reads right after it share one instant.
 */
export function testClock(start: string, options: { step?: number } = {}): TestClock {
  const step = options.step ?? 0;
  let instant = Date.parse(start);
  const clock = () => {
    instant += step;
    return new Date(instant);
  };
  return Object.assign(clock, {
    advance(ms: number) {
      instant += ms;
      return new Date(instant);
    },
    set(at: string) {
      instant = Date.parse(at);
    },
  });
}
