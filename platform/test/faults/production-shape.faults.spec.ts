import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { repoRoot } from '@kosh/command-api';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Ack,
  call,
  type Load,
  type LoadUser,
  missingAcks,
  type Outcome,
  p,
  startLoad,
  unacknowledgedRecords,
} from './load';
import { liveAndRebuiltDigests } from './read-models';
import { type Stack, startStack } from './stack';

/**
 * Fault injection (issue 11) against the production shape: two API processes (KOSH_ROLE=api)
 * and two worker processes (`npm run workers`) on PostgreSQL and Redis, 20 simulated users.
 * `npm test` runs the short form; `npm run test:faults` the long one (KOSH_FAULTS=long:
 * Redis down 30 s, longer windows). PostgreSQL is never restarted here (the server is shared):
 * its outage is a TCP proxy between the app and the server that cuts every connection and
 * refuses new ones, which is what the app sees of a restart.
 */
const long = process.env.KOSH_FAULTS === 'long';
const s = (short: number, full: number) => (long ? full : short) * 1000;
const USERS = 20;
const FULL_WAIT_MS = 5000;
/**
 * The long form holds the bounds exactly. The short form runs inside `npm test` on a
 * machine shared with other work, where any long transaction anywhere on the PostgreSQL server
 * holds back every reader's horizon (xids are cluster-wide): it bounds p99 by the 500 ms
 * or three times this run's own baseline p99, whichever is larger, and tolerates 1% of commands
 * at the full wait.
 */
const p99Bound = (baselineP99: number) => (long ? 500 : Math.max(500, 3 * baselineP99));
const fullWaitsAllowed = (n: number) => (long ? 0 : Math.floor(n / 100));
const fullWaits = (list: readonly Outcome[]) => list.filter((o) => o.ms >= FULL_WAIT_MS).length;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (outcomes: readonly Outcome[], from: number, to: number) =>
  outcomes.filter((o) => o.startedAt >= from && o.startedAt < to);
/** Commands in flight at any time in [from, to). */
const during = (outcomes: readonly Outcome[], from: number, to: number) =>
  outcomes.filter((o) => o.startedAt < to && o.startedAt + o.ms >= from);
const summary = (label: string, outcomes: readonly Outcome[]) =>
  `${label}: ${outcomes.length} commands, p50 ${p(outcomes, 50)} ms, p99 ${p(outcomes, 99)} ms, max ${p(outcomes, 100)} ms, ` +
  `lagging answers ${outcomes.filter((o) => o.lag).length}, non-2xx ${outcomes.filter((o) => o.status >= 300 || o.status === 0).length}, ` +
  `outcome unknown (503) ${outcomes.filter((o) => o.status === 503).length}`;

let stack: Stack;
let load: Load;
let outcomes: Outcome[] = [];
let acks = new Map<string, Ack>();
let users: LoadUser[] = [];
const marks: Record<string, number> = {};

function projectionsCli(...args: string[]) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'platform/src/projections-cli.ts'), ...args],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, ...stack.env, DATABASE_URL: stack.database.url, LOG_LEVEL: 'silent' },
      timeout: 90_000,
    },
  );
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe(`the production shape under faults (${long ? 'long' : 'short'} form)`, () => {
  beforeAll(async () => {
    stack = await startStack({ apis: 2, workers: 2 });
    load = startLoad(stack, { users: USERS });
  });

  afterAll(async () => {
    await load?.stop();
    await stack?.close();
  });

  it('kill -9 of every worker under load: commands never wait on them, p99 < 500 ms within 5 s of the restart', async () => {
    await sleep(s(5, 15));
    marks.kill = Date.now();
    await Promise.all(stack.workers.map((w) => stack.kill(w)));
    await sleep(s(3, 5));
    await Promise.all(stack.workers.map((w) => stack.start(w)));
    marks.restarted = Date.now();
    await sleep(5000 + s(5, 15));
    marks.killWindowEnd = Date.now();
    const done = await load.settled(marks.killWindowEnd);
    // Workers dead: the APIs catch their own read models up; nobody waits the full bound.
    const workersDead = between(done, marks.kill, marks.restarted);
    expect(workersDead.length).toBeGreaterThan(0);
    expect(fullWaits(workersDead)).toBeLessThanOrEqual(fullWaitsAllowed(workersDead.length));
    const afterRestart = between(done, marks.restarted + 5000, marks.killWindowEnd);
    expect(afterRestart.length).toBeGreaterThan(USERS);
    expect(p(afterRestart, 99)).toBeLessThan(p99Bound(p(between(done, 0, marks.kill), 99)));
  });

  it('Redis stopped under load: read models keep moving, no command takes the full wait, schedulers come back', async () => {
    marks.redisDown = Date.now();
    await stack.redis.stop();
    await sleep(s(10, 30));
    await stack.redis.start();
    marks.redisUp = Date.now();
    const redis = new Redis(stack.redis.url, { maxRetriesPerRequest: null });
    try {
      // BullMQ keeps job schedulers in the queue's `repeat` set; Redis came back empty.
      await expect
        .poll(() => redis.zcard('kosh-faults:kosh:repeat'), { timeout: 30_000, interval: 500 })
        .toBeGreaterThanOrEqual(7);
    } finally {
      redis.disconnect();
    }
    // Redis down: no command takes the full wait, read models keep up (almost no lagging answer).
    const redisDown = between(await load.settled(marks.redisUp), marks.redisDown, marks.redisUp);
    expect(redisDown.length).toBeGreaterThan(USERS);
    expect(fullWaits(redisDown)).toBeLessThanOrEqual(fullWaitsAllowed(redisDown.length));
    // Transaction commands answer before their read models by design (ARCHITECTURE.md "Read your own
    // writes"; the user's next request waits): the loans, which still wait in the command, and come
    // after each user's transactions, show whether the read models keep up.
    const waiting = redisDown.filter((o) => o.what === 'loan');
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.filter((o) => o.lag).length).toBeLessThanOrEqual(Math.ceil(waiting.length / 100));
    await sleep(s(3, 10));
  });

  it('PostgreSQL gone for seconds, then cut briefly again and again, under load: only enveloped 5xx meanwhile, every process lives on', async () => {
    marks.pgDown = Date.now();
    await stack.proxy.cut();
    await sleep(s(5, 10));
    await stack.proxy.restore();
    marks.pgUp = Date.now();
    await sleep(s(4, 8));
    // Then brief cuts at random moments: each is a chance to break a connection while an append
    // is on it, whose outcome the answer must still tell truly (stored, or 503 OUTCOME_UNKNOWN).
    marks.cutsStart = Date.now();
    for (let i = 0; i < (long ? 12 : 5); i++) {
      await sleep(600 + Math.random() * 900);
      await stack.proxy.cut();
      await sleep(300 + Math.random() * 700);
      await stack.proxy.restore();
    }
    marks.cutsEnd = Date.now();
    await sleep(s(8, 15));
    ({ outcomes, acks, users } = await load.stop());
    marks.end = Date.now();
    for (const proc of [...stack.apis, ...stack.workers]) expect(proc.child?.exitCode, proc.name).toBeNull();
  });

  it('answered every command truthfully; every acknowledged write is visible; read models equal a rebuild', async () => {
    const windows = {
      baseline: between(outcomes, 0, marks.kill ?? 0),
      workersDead: between(outcomes, marks.kill ?? 0, marks.restarted ?? 0),
      afterRestart: between(outcomes, (marks.restarted ?? 0) + 5000, marks.killWindowEnd ?? 0),
      redisDown: between(outcomes, marks.redisDown ?? 0, marks.redisUp ?? 0),
      // Commands in flight when the connections were cut fail too; reconnecting takes a moment.
      pgDown: [
        ...during(outcomes, marks.pgDown ?? 0, (marks.pgUp ?? 0) + 2000),
        ...during(outcomes, marks.cutsStart ?? 0, (marks.cutsEnd ?? 0) + 2000),
      ],
      all: outcomes,
    };
    console.log(
      Object.entries(windows)
        .map(([label, list]) => summary(label, list))
        .join('\n'),
    );
    const since = (o: Outcome) =>
      Object.entries(marks)
        .map(([mark, at]) => `${mark}${o.startedAt >= at ? '+' : ''}${o.startedAt - at} ms`)
        .join(' ');
    for (const o of outcomes.filter((x) => x.lag || x.ms >= FULL_WAIT_MS))
      console.log(`slow or lagging: ${o.what} ${o.status} ${o.ms} ms ${since(o)}`);

    expect(outcomes.filter((o) => o.wrong).map((o) => o.wrong)).toEqual([]);
    // No API process died or dropped a connection.
    expect(outcomes.filter((o) => o.status === 0)).toEqual([]);
    // Outside the database outage everything succeeded; inside it, failures are the envelope.
    const outsidePg = outcomes.filter((o) => !windows.pgDown.includes(o));
    expect(outsidePg.filter((o) => o.status >= 300).map((o) => `${o.what} ${o.status} ${since(o)}`)).toEqual(
      [],
    );
    expect(windows.pgDown.filter((o) => !o.envelope).map((o) => `${o.what} ${o.status}`)).toEqual([]);
    expect(windows.pgDown.filter((o) => o.status >= 300 && o.status < 500)).toEqual([]);

    // An answer that is not a success stored nothing, unless it said it may have (503
    // OUTCOME_UNKNOWN: the connection broke during the append and did not come back in time).
    expect(await missingAcks(stack, acks, 60_000)).toEqual([]);
    expect(await unacknowledgedRecords(stack, users, acks)).toEqual([]);
    const { live, rebuilt } = await liveAndRebuiltDigests(stack, 60_000);
    expect(rebuilt).toEqual(live);
  });

  it('a poisoned projector: /readyz 503 on every API, the status command names it, retry after the fix catches up', async () => {
    const api = stack.apis[0];
    if (!api) throw new Error('no API');
    const userId = randomUUID();
    const token = await stack.signUp(userId);
    await stack.database.db.query(
      `ALTER TABLE transactions ADD CONSTRAINT poisoned_notes CHECK (notes IS DISTINCT FROM 'poison')`,
    );
    const recorded = await call(api.url, token, 'POST', '/api/transactions', {
      notes: 'poison',
      transaction_type: 'D',
      transaction_date: '2026-01-15',
      amount: 42,
    });
    expect(recorded.status).toBe(201);
    const id = String((recorded.json?.data as { transaction?: { id: string } } | undefined)?.transaction?.id);
    for (const each of stack.apis) {
      await expect
        .poll(async () => (await fetch(`${each.url}/readyz`)).status, { timeout: 30_000, interval: 250 })
        .toBe(503);
      const body = await (await fetch(`${each.url}/readyz`)).json();
      expect(body.checks.projections).toBe('stopped: transactions');
    }
    const status = projectionsCli('status');
    expect(status.code, status.err).toBe(2);
    expect(status.out).toMatch(/^transactions\s+stopped\s/m);

    await stack.database.db.query('ALTER TABLE transactions DROP CONSTRAINT poisoned_notes');
    const retried = projectionsCli('retry', 'transactions');
    expect(retried.code, retried.err).toBe(0);
    for (const each of stack.apis) expect((await fetch(`${each.url}/readyz`)).status).toBe(200);
    const read = await call(api.url, token, 'GET', `/api/transactions/${id}`);
    expect(read.status).toBe(200);
    const { live, rebuilt } = await liveAndRebuiltDigests(stack, 60_000);
    expect(rebuilt).toEqual(live);
  });
});
