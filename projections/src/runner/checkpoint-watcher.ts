import type { Db } from '@kosh/event-store';

/**
 * Answers "has projection X reached position P?" for read-your-writes, cheaply: checkpoints
 * this process advances arrive in-process at once; those advanced by other processes are
 * picked up by one shared poll (one indexed query per interval, only while someone waits).
 */
export interface CheckpointWatcher {
  advanced(name: string, position: string): void;
  stopped(name: string): void;
  resumed(name: string): void;
  waitFor(names: readonly string[], position: string, timeoutMs: number): Promise<boolean>;
  close(): void;
}

type Known = { position: string; stopped: boolean };
type Waiter = {
  names: readonly string[];
  position: string;
  resolve: (reached: boolean) => void;
  timer: ReturnType<typeof setTimeout>;
};

export function createCheckpointWatcher({
  db,
  pollIntervalMs,
}: {
  db: Db;
  pollIntervalMs: number;
}): CheckpointWatcher {
  const known = new Map<string, Known>();
  const waiters = new Set<Waiter>();
  let polling = false;
  let closed = false;

  function learn(name: string, position: string, stopped: boolean): void {
    const current = known.get(name);
    // Checkpoints only move forward; a slower poll must not undo a fresher in-process update.
    const latest = current && current.position > position ? current.position : position;
    known.set(name, { position: latest, stopped });
  }

  /** true: reached; false: a projection is stopped short of it; null: keep waiting. */
  function evaluate(waiter: Waiter): boolean | null {
    let pending = false;
    for (const name of waiter.names) {
      const k = known.get(name);
      if (k && k.position >= waiter.position) continue;
      if (k?.stopped) return false;
      pending = true;
    }
    return pending ? null : true;
  }

  function settle(waiter: Waiter, reached: boolean): void {
    clearTimeout(waiter.timer);
    waiters.delete(waiter);
    waiter.resolve(reached);
  }

  function checkAll(): void {
    for (const waiter of waiters) {
      const result = evaluate(waiter);
      if (result !== null) settle(waiter, result);
    }
  }

  async function poll(): Promise<void> {
    if (polling) return;
    polling = true;
    try {
      while (waiters.size > 0 && !closed) {
        const names = [...new Set([...waiters].flatMap((w) => w.names))];
        try {
          const { rows } = await db.query<{ name: string; position: string; status: string }>(
            'SELECT name, position, status FROM projection_checkpoints WHERE name = ANY($1)',
            [names],
          );
          for (const row of rows) learn(row.name, row.position, row.status === 'stopped');
          checkAll();
        } catch {
          // Database briefly unavailable: the waiters' own timeouts bound the wait.
        }
        if (waiters.size > 0) await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
      }
    } finally {
      polling = false;
    }
  }

  return {
    advanced(name, position) {
      learn(name, position, false);
      checkAll();
    },
    stopped(name) {
      learn(name, known.get(name)?.position ?? '', true);
      checkAll();
    },
    resumed(name) {
      const k = known.get(name);
      if (k) k.stopped = false;
    },
    waitFor(names, position, timeoutMs) {
      if (names.length === 0 || position === '') return Promise.resolve(true);
      if (closed) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const waiter: Waiter = {
          names,
          position,
          resolve,
          timer: setTimeout(() => settle(waiter, false), timeoutMs),
        };
        if (evaluate(waiter) === true) {
          clearTimeout(waiter.timer);
          resolve(true);
          return;
        }
        // A stopped flag in memory may be stale (resumed elsewhere): let the poll decide.
        waiters.add(waiter);
        void poll();
      });
    },
    close() {
      closed = true;
      for (const waiter of waiters) settle(waiter, false);
    },
  };
}
