import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullMqQueue } from './bullmq';
import { QueueUnavailableError } from './port';
import { type PrivateRedis, startPrivateRedis } from './testing/redis-server';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `predicate` holds, polling; rejects after `timeoutMs`. */
async function until(predicate: () => boolean, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

describe('BullMQ queue through worker deaths and Redis outages', () => {
  let redis: PrivateRedis;

  beforeAll(async () => {
    redis = await startPrivateRedis();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  it('a wake-up queued behind the job of a SIGKILLed worker runs within a few seconds', async () => {
    const prefix = `kosh-test-${randomBytes(6).toString('hex')}`;
    const script = fileURLToPath(new URL('./testing/hanging-worker.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, redis.url, prefix], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const queue = createBullMqQueue({ url: redis.url, prefix });
    try {
      await until(() => out.includes('ready'), 20_000);
      await queue.enqueue('project:stuck', {}, { jobId: 'project:stuck' });
      await until(() => out.includes('taken'), 10_000);
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
      // The dead worker's job is still active and holds the de-duplication id.
      await queue.enqueue('project:stuck', {}, { jobId: 'project:stuck' });
      let runs = 0;
      const killedAt = Date.now();
      queue.process('project:stuck', async () => {
        runs++;
      });
      await until(() => runs >= 1, 10_000);
      expect(Date.now() - killedAt).toBeLessThan(4000);
    } finally {
      child.kill('SIGKILL');
      await queue.close();
    }
  });

  it('fails an enqueue at once while Redis is down, and takes jobs again once it is back', async () => {
    const queue = createBullMqQueue({
      url: redis.url,
      prefix: `kosh-test-${randomBytes(6).toString('hex')}`,
    });
    let runs = 0;
    queue.process('ping:job', async () => {
      runs++;
    });
    try {
      await queue.enqueue('ping:job', {});
      await until(() => runs === 1, 5000);
      await redis.stop();
      await sleep(300);
      const started = Date.now();
      await expect(queue.enqueue('ping:job', {})).rejects.toBeInstanceOf(QueueUnavailableError);
      expect(Date.now() - started).toBeLessThan(100);
      expect(await queue.ping()).toBe(false);
      await redis.start();
      await expect
        .poll(
          async () =>
            queue.enqueue('ping:job', {}).then(
              () => true,
              () => false,
            ),
          { timeout: 15_000 },
        )
        .toBe(true);
      await until(() => runs >= 2, 10_000);
    } finally {
      await queue.close();
    }
  });

  it('registers its job schedulers again when Redis comes back empty, and when they vanish', async () => {
    const prefix = `kosh-test-${randomBytes(6).toString('hex')}`;
    const queue = createBullMqQueue({ url: redis.url, prefix, scheduleCheckMs: 500 });
    let ticks = 0;
    queue.process('tick', async () => {
      ticks++;
    });
    try {
      await queue.schedule('tick', 200);
      await until(() => ticks >= 2, 10_000);
      await redis.stop();
      await redis.start();
      const afterRestart = ticks;
      await until(() => ticks >= afterRestart + 2, 15_000);

      const operator = new Queue('kosh', { connection: { url: redis.url }, prefix });
      try {
        await operator.removeJobScheduler('tick');
      } finally {
        await operator.close();
      }
      const afterRemoval = ticks;
      await until(() => ticks >= afterRemoval + 2, 15_000);
    } finally {
      await queue.close();
    }
  });
});
