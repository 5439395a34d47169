/**
 * Command latency in the production shape (issue 11): `npm run bench:commands`.
 * `npm run bench:commands -- writes`: the cost of one write (issue 33 item 3), `transactionWrites`.
 * One API process (KOSH_ROLE=api) and one worker process on a fresh PostgreSQL database and a
 * private Redis, 20 writers recording, editing and creating loans back to back for
 * BENCH_SECONDS (default 20). Prints p50/p99 per kind and over all, and answers that had to be
 * built from the aggregate because a read model lagged. Not a test: figures only.
 */
import { type Outcome, p, startLoad, startStack } from '@kosh/platform/testing';
import { transactionWrites } from './writes';

const seconds = Number(process.env.BENCH_SECONDS ?? '20');
const writers = Number(process.env.BENCH_WRITERS ?? '20');

const line = (label: string, list: readonly Outcome[]) =>
  `${label.padEnd(8)} ${String(list.length).padStart(6)} commands  p50 ${String(p(list, 50)).padStart(5)} ms  p99 ${String(p(list, 99)).padStart(5)} ms  lagging answers ${list.filter((o) => o.lag).length}  non-2xx ${list.filter((o) => o.status >= 300 || o.status === 0).length}`;

async function mixedCommands() {
  const stack = await startStack({ apis: 1, workers: 1 });
  try {
    console.log(
      `Kosh commands — 1 API + 1 worker process, ${writers} writers, ${seconds} s, node ${process.version}`,
    );
    const load = startLoad(stack, { users: writers, pauseMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const { outcomes } = await load.stop();
    console.log(line('all', outcomes));
    for (const what of ['record', 'edit', 'loan'] as const) {
      console.log(
        line(
          what,
          outcomes.filter((o) => o.what === what),
        ),
      );
    }
    console.log(`throughput ${(outcomes.length / seconds).toFixed(0)} commands/s`);
  } finally {
    await stack.close();
  }
}

if (process.argv[2] === 'writes') await transactionWrites();
else await mixedCommands();
