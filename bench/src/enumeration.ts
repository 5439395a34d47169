/**
 * Account enumeration by timing (issue 10, item 4): `npm run bench:enumeration`.
 *
 * For each auth endpoint that takes an e-mail address, times 60 answers for an address that has
 * an account and 60 for one that has none, interleaved, through the whole Fastify app
 * (`app.inject`), on PostgreSQL (a fresh database on DATABASE_URL's server) and on embedded
 * PGlite. Prints the medians, their ratio, and as the in-run baseline of noise the ratio of the
 * medians of the two halves of the unknown-address series; then the medians of the client's next
 * request (a search of its transactions, which no cache answers), which work done after the
 * answer must not delay. Also checks that both kinds of answer have the same status and body.
 * Rate limits are off; the login lockout is not, so wrong passwords are spread over several
 * accounts and client addresses as a prober would.
 * Not a test: figures only.
 *
 * Options (environment): BENCH_TRIES=60  BENCH_PAUSE_MS=200 (between tries, so that work
 * finished after one answer does not slow the next)  BENCH_ONLY=profile (endpoints whose name
 * contains it)  BENCH_MODES=postgres,embedded
 */
import { randomInt, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestApp, type TestApp } from '@kosh/command-api/testing';
import { listOutbox } from '@kosh/platform';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';

const TRIES = Number(process.env.BENCH_TRIES ?? 60);
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 200);
const ONLY = process.env.BENCH_ONLY ?? '';
const MODES = (process.env.BENCH_MODES ?? 'postgres,embedded').split(',');
const ACCOUNTS = 6;
const PASSWORD = 'Secret12';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const fresh = (label: string) => `${label}.${randomUUID().slice(0, 12)}@example.in`;
const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const shape = (r: LightMyRequestResponse, address: string) =>
  `${r.statusCode} ${r.body.replace(/"timestamp":"[^"]*"/, '').replace(address, '<address>')}`;

async function mailedToken(t: TestApp, email: string): Promise<string> {
  for (let i = 0; i < 400; i++) {
    const mail = (await listOutbox(t.platform.db)).find(
      (m) => m.to === email && m.text.includes('/verify-email'),
    );
    const link = mail?.text.split(/\s+/).find((word) => word.includes('/verify-email?'));
    const token = link ? new URL(link).searchParams.get('token') : null;
    if (token) return token;
    await sleep(25);
  }
  throw new Error(`no verification mail for ${email}`);
}

type Probe = {
  name: string;
  /** The request for try `i`, with an address that has an account or not. */
  request(i: number, known: boolean): { options: InjectOptions; address: string };
};

async function run(mode: 'postgres' | 'embedded') {
  const t = await createTestApp({ mode, env: { RATE_LIMIT_ENABLED: 'false' } });
  try {
    const inject = (options: InjectOptions) => t.app.inject({ remoteAddress: randomIp(), ...options });
    const register = (email: string) =>
      inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { first_name: 'Asha', last_name: 'Rao', email, password: PASSWORD },
      });

    const verified: string[] = [];
    const unverified: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const email = fresh('owner');
      await register(email);
      const token = await mailedToken(t, email);
      await inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
      verified.push(email);
      const pending = fresh('pending');
      await register(pending);
      unverified.push(pending);
    }
    const proberEmail = fresh('prober');
    await register(proberEmail);
    const verifiedProber = await inject({
      method: 'POST',
      url: '/api/auth/verify-email',
      payload: { token: await mailedToken(t, proberEmail) },
    });
    const prober = { authorization: `Bearer ${verifiedProber.json().data.token}` };
    const account = (list: string[], i: number) => list[i % list.length] as string;

    const probes: Probe[] = [
      {
        name: 'register',
        request: (i, known) => {
          const address = known ? account(verified, i) : fresh('new');
          const payload = { first_name: 'Eve', last_name: 'Probe', email: address, password: PASSWORD };
          return { address, options: { method: 'POST', url: '/api/auth/register', payload } };
        },
      },
      {
        name: 'forgot-password',
        request: (i, known) => {
          const address = known ? account(verified, i) : fresh('nobody');
          return {
            address,
            options: { method: 'POST', url: '/api/auth/forgot-password', payload: { email: address } },
          };
        },
      },
      {
        name: 'resend-verification',
        request: (i, known) => {
          const address = known ? account(unverified, i) : fresh('nobody');
          return {
            address,
            options: { method: 'POST', url: '/api/auth/resend-verification', payload: { email: address } },
          };
        },
      },
      {
        name: 'login (wrong password)',
        request: (i, known) => {
          const address = known ? account(verified, i) : fresh('nobody');
          return {
            address,
            options: {
              method: 'POST',
              url: '/api/auth/login',
              payload: { email: address, password: 'Wrong123' },
            },
          };
        },
      },
      {
        name: 'profile e-mail change',
        request: (i, known) => {
          const address = known ? account(verified, i) : fresh('free');
          const payload = { first_name: 'Asha', last_name: 'Rao', email: address };
          return { address, options: { method: 'PUT', url: '/api/auth/profile', headers: prober, payload } };
        },
      },
    ];

    console.log(`\n${mode}: ${TRIES} tries each, medians in ms`);
    console.log(
      'endpoint                  existing   unknown   ratio   noise (unknown halves)   same answer   next after existing / unknown',
    );
    for (const probe of probes.filter((p) => p.name.includes(ONLY))) {
      const times = { known: [] as number[], unknown: [] as number[] };
      const next = { known: [] as number[], unknown: [] as number[] };
      const answers = { known: new Set<string>(), unknown: new Set<string>() };
      for (let i = 0; i < TRIES; i++) {
        // Alternate which goes first, so drift and warm-up fall on both sides.
        const order = i % 2 === 0 ? [true, false] : [false, true];
        for (const known of order) {
          const { options, address } = probe.request(i, known);
          const started = performance.now();
          const response = await inject(options);
          const elapsed = performance.now() - started;
          (known ? times.known : times.unknown).push(elapsed);
          (known ? answers.known : answers.unknown).add(shape(response, address));
          // The client's next request, arriving a moment later as over a network (an injected one
          // would run before anything the answer left to do): work after the answer must not delay it.
          await sleep(1);
          const nextStarted = performance.now();
          await inject({ method: 'GET', url: '/api/transactions?search=next', headers: prober });
          (known ? next.known : next.unknown).push(performance.now() - nextStarted);
          await sleep(PAUSE_MS);
        }
      }
      const known = median(times.known);
      const unknown = median(times.unknown);
      const half = Math.floor(times.unknown.length / 2);
      const noise = median(times.unknown.slice(0, half)) / median(times.unknown.slice(half));
      const same =
        answers.known.size === 1 &&
        answers.unknown.size === 1 &&
        [...answers.known][0] === [...answers.unknown][0];
      console.log(
        `${probe.name.padEnd(24)} ${known.toFixed(2).padStart(9)} ${unknown.toFixed(2).padStart(9)} ${(known / unknown).toFixed(3).padStart(7)} ${noise.toFixed(3).padStart(12)}              ${same ? 'yes' : `NO ${[...answers.known][0]} / ${[...answers.unknown][0]}`}   ${median(next.known).toFixed(2).padStart(9)} ${median(next.unknown).toFixed(2).padStart(9)}`,
      );
    }
  } finally {
    await t.close();
  }
}

for (const mode of ['postgres', 'embedded'] as const) if (MODES.includes(mode)) await run(mode);
