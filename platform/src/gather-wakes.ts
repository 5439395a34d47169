/**
 * Spaces a job process's catch-up rounds while commits keep coming (ARCHITECTURE.md "How
 * projections wake"): `wake` (each NOTIFY heard) starts `round` at once after a quiet moment,
 * else once `everyMs` after the last round started, for every wake heard meanwhile. A wake is
 * never dropped: one heard after a round started brings the next.
 */
export function gatherWakes(everyMs: number, round: () => void): { wake(): void; stop(): void } {
  let lastRound = Number.NEGATIVE_INFINITY;
  let next: ReturnType<typeof setTimeout> | null = null;
  const start = () => {
    next = null;
    lastRound = Date.now();
    round();
  };
  return {
    wake() {
      if (next) return;
      const wait = lastRound + everyMs - Date.now();
      if (wait <= 0) start();
      else next = setTimeout(start, wait);
    },
    stop() {
      if (next) clearTimeout(next);
      next = null;
    },
  };
}
