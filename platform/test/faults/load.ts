import { randomUUID } from 'node:crypto';
import type { Stack } from './stack';

/**
 * Simulated users against the API processes: each records transactions, edits some, creates
 * loans, with a short pause between commands, and checks every answer against what it sent.
 */
export type Outcome = {
  what: 'record' | 'edit' | 'loan';
  status: number;
  ms: number;
  startedAt: number;
  lag: boolean;
  /** Why the answer was wrong (a 2xx with other values, a 404 for one's own record), or null. */
  wrong: string | null;
  /** A non-2xx answer in the error envelope (never an HTML page or a bare stack). */
  envelope: boolean;
};

export type Ack = {
  userId: string;
  kind: 'transaction' | 'loan';
  id: string;
  expected: Record<string, unknown>;
  /**
   * Later edits of it answered 503 OUTCOME_UNKNOWN ("may or may not be saved"): the read model
   * may show one of them instead of `expected`. Any other failed edit must have changed nothing.
   */
  mayShow?: Record<string, unknown>[];
  /** Later edits of it that were not acknowledged (non-2xx), for the diagnosis of a mismatch. */
  unacknowledged?: string[];
};

/** A simulated user, and how many of its new transactions were answered 503 OUTCOME_UNKNOWN. */
export type LoadUser = { userId: string; unknownRecords: number };

export type Load = {
  /**
   * The outcomes of every command started before `at`, once each has its answer (every call is
   * bounded by its 30 s timeout); the load goes on.
   */
  settled(at: number): Promise<Outcome[]>;
  stop(): Promise<{ outcomes: Outcome[]; acks: Map<string, Ack>; users: LoadUser[] }>;
};

const loanBody = (accountNumber: string) => ({
  bank_id: 1,
  loan_type_id: 1,
  account_number: accountNumber,
  short_detail: 'Fault suite',
  principal_amount: 500000,
  interest_rate: 9.5,
  is_interest_rate_yearly: 1,
  duration: 5,
  is_duration_yearly: 1,
  start_date: '2025-04-01',
  end_date: '2030-04-01',
  processing_fee: 0,
  has_gst: 0,
  gst_percentage: 0,
});

type Answer = { status: number; json: Record<string, unknown> | null; headers: Headers };

export async function call(
  baseUrl: string,
  token: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, json, headers: response.headers };
}

const isEnvelope = (json: Record<string, unknown> | null) =>
  json !== null && json.success === false && typeof json.message === 'string';

export function startLoad(stack: Stack, options: { users: number; pauseMs?: number }): Load {
  const outcomes: Outcome[] = [];
  const acks = new Map<string, Ack>();
  const users: LoadUser[] = [];
  /** When each simulated user's command in flight started; null between commands. */
  const inFlight: (number | null)[] = Array.from({ length: options.users }, () => null);
  let running = true;
  const pause = options.pauseMs ?? 250;

  async function user(u: number): Promise<void> {
    const userId = randomUUID();
    const self: LoadUser = { userId, unknownRecords: 0 };
    users.push(self);
    const token = await stack.signUp(userId);
    let lastTransaction: string | null = null;
    for (let k = 0; running; k++) {
      const apis = stack.apis.filter((a) => a.child);
      const api = apis[(u + k) % Math.max(1, apis.length)];
      if (!api) break;
      const what: Outcome['what'] = k % 5 === 4 ? 'loan' : k % 3 === 2 && lastTransaction ? 'edit' : 'record';
      const amount = 100 + ((u * 1000 + k) % 9000);
      const notes = `u${u} k${k}`;
      const startedAt = Date.now();
      inFlight[u] = startedAt;
      let outcome: Outcome;
      try {
        if (what === 'loan') {
          const account = `FS${u}X${k}`.padEnd(6, '0');
          const r = await call(api.url, token, 'POST', '/api/loans', loanBody(account));
          const loan = (r.json?.data as { loan?: { id: string; account_number: string } } | undefined)?.loan;
          const wrong =
            r.status === 201 && loan?.account_number !== account
              ? `loan answer ${JSON.stringify(loan)}`
              : r.status === 404
                ? 'created loan answered 404'
                : null;
          if (r.status === 201 && loan)
            acks.set(loan.id, { userId, kind: 'loan', id: loan.id, expected: { account_number: account } });
          outcome = {
            what,
            status: r.status,
            ms: Date.now() - startedAt,
            startedAt,
            lag: r.headers.get('x-read-model-lag') === 'true',
            wrong,
            envelope: r.status < 300 || isEnvelope(r.json),
          };
        } else {
          const body = { notes, transaction_type: k % 2 ? 'C' : 'D', transaction_date: '2026-01-15', amount };
          const r: Answer =
            what === 'edit' && lastTransaction
              ? await call(api.url, token, 'PUT', `/api/transactions/${lastTransaction}`, body)
              : await call(api.url, token, 'POST', '/api/transactions', body);
          const t = (
            r.json?.data as { transaction?: { id: string; notes: string; amount: number } } | undefined
          )?.transaction;
          const ok = r.status === 201 || r.status === 200;
          const wrong =
            ok && (t?.notes !== notes || t?.amount !== amount)
              ? `transaction answer ${JSON.stringify(t)} for ${JSON.stringify(body)}`
              : r.status === 404
                ? `${what} answered 404`
                : null;
          const unknownOutcome = r.status === 503 && r.json?.errorCode === 'OUTCOME_UNKNOWN';
          if (ok && t) {
            acks.set(t.id, { userId, kind: 'transaction', id: t.id, expected: { notes, amount } });
            lastTransaction = t.id;
          } else if (what === 'record' && unknownOutcome) {
            self.unknownRecords++;
          } else if (what === 'edit' && lastTransaction) {
            const ack = acks.get(lastTransaction);
            if (ack) {
              ack.unacknowledged = [...(ack.unacknowledged ?? []), `${r.status} ${JSON.stringify(body)}`];
              if (unknownOutcome) ack.mayShow = [...(ack.mayShow ?? []), { notes, amount }];
            }
          }
          outcome = {
            what,
            status: r.status,
            ms: Date.now() - startedAt,
            startedAt,
            lag: r.headers.get('x-read-model-lag') === 'true',
            wrong,
            envelope: ok || isEnvelope(r.json),
          };
        }
      } catch (error) {
        // The connection itself failed (an API process killed mid-request): not acknowledged.
        outcome = {
          what,
          status: 0,
          ms: Date.now() - startedAt,
          startedAt,
          lag: false,
          wrong: null,
          envelope: false,
        };
        void error;
      }
      outcomes.push(outcome);
      inFlight[u] = null;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  const simulated = Array.from({ length: options.users }, (_, u) => user(u));
  return {
    async settled(at) {
      while (inFlight.some((started) => started !== null && started < at))
        await new Promise((resolve) => setTimeout(resolve, 50));
      return outcomes.filter((o) => o.startedAt < at);
    },
    async stop() {
      running = false;
      await Promise.all(simulated);
      return { outcomes, acks, users: [...users] };
    },
  };
}

/** p-th percentile of the latencies of `outcomes` (ms). */
export function p(outcomes: readonly Outcome[], percentile: number): number {
  const sorted = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((percentile / 100) * sorted.length) - 1)] ?? 0;
}

/** An API process that is running (the suite restarts some). */
function runningApi(stack: Stack) {
  const api = stack.apis.find((a) => a.child);
  if (!api) throw new Error('no API process running');
  return api;
}

/** An acknowledged write as the API shows it now: the status, and the loan or transaction. */
async function readBack(stack: Stack, ack: Ack) {
  const path = ack.kind === 'loan' ? `/api/loans/${ack.id}` : `/api/transactions/${ack.id}`;
  const r = await call(runningApi(stack).url, stack.tokenFor(ack.userId), 'GET', path);
  const shown = (r.json?.data as Record<string, Record<string, unknown>> | undefined)?.[ack.kind];
  return { status: r.status, shown };
}

/** Every acknowledged write, read back through the API until it shows (or `timeoutMs`). */
export async function missingAcks(
  stack: Stack,
  acks: Map<string, Ack>,
  timeoutMs: number,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let pending = [...acks.values()];
  for (;;) {
    const still: Ack[] = [];
    for (const ack of pending) {
      const { status, shown } = await readBack(stack, ack);
      const shows = (values: Record<string, unknown>) =>
        Object.entries(values).every(([k, v]) => shown?.[k] === v);
      const matches = status === 200 && shown && [ack.expected, ...(ack.mayShow ?? [])].some(shows);
      if (!matches) still.push(ack);
    }
    pending = still;
    if (pending.length === 0) return [];
    if (Date.now() > deadline) return Promise.all(pending.map((a) => describeMissing(stack, a)));
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * A missing acknowledged write, with what would tell why: the API's answer now, the stream's
 * events in the log (type, position, the fields the ack checks) and the read models' checkpoints.
 */
async function describeMissing(stack: Stack, ack: Ack): Promise<string> {
  const { status, shown } = await readBack(stack, ack);
  const fields = Object.keys(ack.expected);
  const pick = (o: Record<string, unknown> | undefined) =>
    o
      ? Object.fromEntries(
          fields.map((f) => [f, o[f] ?? o[f.replace(/_([a-z])/g, (_, c) => c.toUpperCase())]]),
        )
      : o;
  const streamId = `${ack.kind === 'loan' ? 'loan' : 'txn'}-${ack.id}`;
  const db = stack.database.db;
  const { rows: events } = await db.query<{
    type: string;
    v: number;
    xid: string;
    g: string;
    data: Record<string, unknown>;
  }>(
    `SELECT type, stream_version AS v, transaction_id::text AS xid, global_position::text AS g, data
       FROM events WHERE stream_id = $1 ORDER BY stream_version`,
    [streamId],
  );
  const { rows: checkpoints } = await db.query<{ name: string; position: string; status: string }>(
    `SELECT name, position, status FROM projection_checkpoints ORDER BY name`,
  );
  return [
    `${ack.kind} ${ack.id} of ${ack.userId}: expected ${JSON.stringify(ack.expected)}`,
    `  API now: ${status} ${JSON.stringify(pick(shown))}`,
    ...(ack.unacknowledged ?? []).map((attempt) => `  later edit answered ${attempt}`),
    ...events.map(
      (e) =>
        `  log: v${e.v} ${e.type} xid ${e.xid} #${e.g} ${JSON.stringify(pick({ ...e.data, ...(e.data.changes as Record<string, unknown> | undefined) }))}`,
    ),
    `  checkpoints: ${checkpoints.map((c) => `${c.name}=${c.position}${c.status === 'running' ? '' : ` ${c.status}`}`).join(' ')}`,
  ].join('\n');
}

/**
 * Transactions in the users' books that no answer acknowledged: a record answered with a failure
 * must have stored nothing. Only a record answered 503 OUTCOME_UNKNOWN ("may or may not be
 * saved") may be there unacknowledged, as many as there were such answers.
 */
export async function unacknowledgedRecords(
  stack: Stack,
  users: readonly LoadUser[],
  acks: ReadonlyMap<string, Ack>,
): Promise<string[]> {
  const api = runningApi(stack);
  const found: string[] = [];
  for (const user of users) {
    const ids: string[] = [];
    for (let page = 1; ; page++) {
      const r = await call(
        api.url,
        stack.tokenFor(user.userId),
        'GET',
        `/api/transactions?limit=100&page=${page}`,
      );
      const data = r.json?.data as
        | { transactions: { id: string; notes: string }[]; pagination: { has_next: boolean } }
        | undefined;
      if (r.status !== 200 || !data) throw new Error(`transaction list answered ${r.status}`);
      ids.push(...data.transactions.map((t) => t.id));
      if (!data.pagination.has_next) break;
    }
    const extra = ids.filter((id) => acks.get(id)?.userId !== user.userId);
    if (extra.length > user.unknownRecords)
      found.push(
        `${user.userId}: ${extra.length} unacknowledged (${user.unknownRecords} answered 503 OUTCOME_UNKNOWN): ${extra.join(', ')}`,
      );
  }
  return found;
}
