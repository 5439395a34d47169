/**
 * What waking the projections costs and gives (issue 29, item 6): `npm run bench:waking`.
 * The production shape (one API process, KOSH_ROLE=api, and one worker process on a fresh
 * PostgreSQL database and a private Redis). A probe user records transactions one at a time and,
 * after each answer, polls the `history` checkpoint (a read model no transaction waits for, so
 * only the workers bring it up) until it reaches the answer's X-Event-Position: that wait is the
 * projection lag. Quiet: the probe alone. Under load: the probe beside BENCH_WRITERS writers
 * recording, editing and creating loans back to back for BENCH_SECONDS. Prints POST p50/p99 and
 * the lag p50/p99 of each. Not a test: figures only.
 *
 * BENCH_STACK_ENV (JSON, optional): extra environment for the processes of one run, e.g. to
 * compare configurations in one sitting.
 */

import { type Outcome, p, startLoad, startStack } from '@kosh/platform/testing';
import pg from 'pg';

const seconds = Number(process.env.BENCH_SECONDS ?? '10');
const writers = Number(process.env.BENCH_WRITERS ?? '20');
const quietPosts = Number(process.env.BENCH_QUIET_POSTS ?? '60');
const stackEnv = JSON.parse(process.env.BENCH_STACK_ENV ?? '{}') as Record<string, string>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pct = (values: readonly number[], percentile: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((percentile / 100) * sorted.length) - 1)] ?? 0;
};

const stack = await startStack({ apis: 1, workers: 1, env: stackEnv });
const db = new pg.Client({ connectionString: stack.database.url });
await db.connect();
try {
  const api = stack.apis[0];
  if (!api) throw new Error('no API');
  const token = await stack.signUp(crypto.randomUUID());

  /** One recorded transaction: the POST's time, and the time after it until `history` has it. */
  async function probe(k: number): Promise<{ post: number; lag: number }> {
    const started = performance.now();
    const body = {
      notes: `probe ${k}`,
      transaction_type: 'D',
      transaction_date: '2026-01-15',
      amount: 100 + k,
    };
    const r = await fetch(`${api?.url}/api/transactions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await r.arrayBuffer();
    const answered = performance.now();
    const position = r.headers.get('x-event-position');
    if (r.status !== 201 || !position) throw new Error(`probe answered ${r.status}`);
    for (;;) {
      const { rows } = await db.query<{ position: string }>(
        `SELECT position FROM projection_checkpoints WHERE name = 'history'`,
      );
      if ((rows[0]?.position ?? '') >= position) break;
      if (performance.now() - answered > 30_000) throw new Error('history never caught up');
      await sleep(1);
    }
    return { post: answered - started, lag: performance.now() - answered };
  }

  const line = (label: string, figures: { post: number; lag: number }[]) =>
    `${label.padEnd(22)} ${String(figures.length).padStart(5)} probes  POST p50 ${pct(
      figures.map((f) => f.post),
      50,
    ).toFixed(1)} ms  p99 ${pct(
      figures.map((f) => f.post),
      99,
    ).toFixed(1)} ms  history lag p50 ${pct(
      figures.map((f) => f.lag),
      50,
    ).toFixed(1)} ms  p99 ${pct(
      figures.map((f) => f.lag),
      99,
    ).toFixed(1)} ms`;

  console.log(
    `Kosh waking — 1 API + 1 worker process; env ${JSON.stringify(stackEnv)}; node ${process.version}`,
  );
  for (let k = 0; k < 5; k++) await probe(k); // warm-up
  const quiet: { post: number; lag: number }[] = [];
  for (let k = 0; k < quietPosts; k++) {
    quiet.push(await probe(k));
    await sleep(50);
  }
  console.log(line('quiet', quiet));

  const load = startLoad(stack, { users: writers, pauseMs: 0 });
  const loaded: { post: number; lag: number }[] = [];
  const until = performance.now() + seconds * 1000;
  await sleep(1000);
  for (let k = 0; performance.now() < until; k++) loaded.push(await probe(1000 + k));
  const { outcomes } = await load.stop();
  const posts = outcomes.filter((o: Outcome) => o.what === 'record');
  console.log(line(`beside ${writers} writers`, loaded));
  console.log(
    `${'writers'.padEnd(22)} ${String(outcomes.length).padStart(5)} commands ${(outcomes.length / seconds).toFixed(0)}/s  POST p50 ${p(posts, 50)} ms  p99 ${p(posts, 99)} ms  lagging answers ${outcomes.filter((o) => o.lag).length}  non-2xx ${outcomes.filter((o) => o.status >= 300 || o.status === 0).length}`,
  );
} finally {
  await db.end();
  await stack.close();
}
