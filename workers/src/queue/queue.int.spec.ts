import { afterEach, describe, expect, it } from 'vitest';
import { queueAdapters, type TestQueue } from './testing/queues';

/** A promise with its resolve function, to wait for a processor to reach a point. */
function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe.each(queueAdapters)('$name queue', (adapter) => {
  let current: TestQueue | null = null;
  const open = (concurrency = 1) => {
    current = adapter.create({ concurrency });
    return current.queue;
  };

  afterEach(async () => {
    await current?.cleanup();
    current = null;
  });

  /** Enqueues a job behind everything else and waits until it ran. */
  async function drain(queue: ReturnType<typeof open>) {
    const ran = signal();
    queue.process('sentinel', async () => ran.resolve());
    await queue.enqueue('sentinel', {});
    await ran.promise;
  }

  it('answers ping', async () => {
    expect(await open().ping()).toBe(true);
  });

  it('adds a job whose id is already waiting only once', async () => {
    const queue = open();
    for (let i = 0; i < 5; i++) await queue.enqueue('project:x', { i }, { jobId: 'project:x' });
    let runs = 0;
    queue.process('project:x', async () => {
      runs++;
    });
    await drain(queue);
    expect(runs).toBe(1);
  });

  it('runs a job that arrives while its twin runs exactly once more, after it', async () => {
    const queue = open(4);
    const started = signal();
    const release = signal();
    const secondRun = signal();
    let runs = 0;
    let concurrent = 0;
    let maxConcurrent = 0;
    queue.process('project:y', async () => {
      runs++;
      concurrent++;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      if (runs === 1) {
        started.resolve();
        await release.promise;
      }
      if (runs === 2) secondRun.resolve();
      concurrent--;
    });
    await queue.enqueue('project:y', {}, { jobId: 'project:y' });
    await started.promise;
    for (let i = 0; i < 3; i++) await queue.enqueue('project:y', { i }, { jobId: 'project:y' });
    release.resolve();
    await secondRun.promise;
    await drain(queue);
    expect({ runs, maxConcurrent }).toEqual({ runs: 2, maxConcurrent: 1 });
  });

  it('retries a failing job with backoff', async () => {
    const queue = open();
    const succeeded = signal<number>();
    let attempts = 0;
    queue.process('flaky', async () => {
      attempts++;
      if (attempts < 3) throw new Error('not yet');
      succeeded.resolve(attempts);
    });
    await queue.enqueue('flaky', {}, { attempts: 3, backoffMs: 10 });
    expect(await succeeded.promise).toBe(3);
  });

  it('dispatches by name prefix and passes the data', async () => {
    const queue = open();
    const got = signal<unknown>();
    queue.process('mail:*', async (data) => got.resolve(data));
    await queue.enqueue('mail:welcome', { to: 'a@example.com' });
    expect(await got.promise).toEqual({ to: 'a@example.com' });
  });

  it('repeats a scheduled job', async () => {
    const queue = open();
    const twice = signal();
    let runs = 0;
    queue.process('tick', async () => {
      if (++runs === 2) twice.resolve();
    });
    await queue.schedule('tick', 100);
    await twice.promise;
    expect(runs).toBeGreaterThanOrEqual(2);
  });
});
