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
};

export type Load = { stop(): Promise<{ outcomes: Outcome[]; acks: Map<string, Ack> }> };

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
  let running = true;
  const pause = options.pauseMs ?? 250;

  async function user(u: number): Promise<void> {
    const userId = randomUUID();
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
          if (ok && t) {
            acks.set(t.id, { userId, kind: 'transaction', id: t.id, expected: { notes, amount } });
            lastTransaction = t.id;
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
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  const users = Array.from({ length: options.users }, (_, u) => user(u));
  return {
    async stop() {
      running = false;
      await Promise.all(users);
      return { outcomes, acks };
    },
  };
}

/** p-th percentile of the latencies of `outcomes` (ms). */
export function p(outcomes: readonly Outcome[], percentile: number): number {
  const sorted = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((percentile / 100) * sorted.length) - 1)] ?? 0;
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
    const api = stack.apis.find((a) => a.child);
    if (!api) throw new Error('no API process running');
    const still: Ack[] = [];
    for (const ack of pending) {
      const path = ack.kind === 'loan' ? `/api/loans/${ack.id}` : `/api/transactions/${ack.id}`;
      const r = await call(api.url, stack.tokenFor(ack.userId), 'GET', path);
      const data = (r.json?.data as Record<string, Record<string, unknown>> | undefined)?.[ack.kind];
      const matches =
        r.status === 200 && data && Object.entries(ack.expected).every(([k, v]) => data[k] === v);
      if (!matches) still.push(ack);
    }
    pending = still;
    if (pending.length === 0 || Date.now() > deadline) {
      return pending.map((a) => `${a.kind} ${a.id} of ${a.userId}: expected ${JSON.stringify(a.expected)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
