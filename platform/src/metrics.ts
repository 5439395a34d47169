import type { ProjectionRunner, ProjectionStatus } from '@kosh/projections';
import type { JobQueue } from '@kosh/workers';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What an operator graphs and alerts on (Prometheus text at `/metrics`). Projection lag, dead
 * letters and queue depth are read when scraped: they are the same for every process, so any
 * API answers for the whole deployment.
 */
export type Metrics = {
  readonly registry: Registry;
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly appendDuration: Histogram;
  readonly readYourWritesWait: Histogram<'outcome'>;
  readonly answerCache: Counter<'route' | 'outcome'>;
};

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(deps: { runner: ProjectionRunner; queue: JobQueue }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'kosh_' });
  const httpDuration = new Histogram({
    name: 'kosh_http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const appendDuration = new Histogram({
    name: 'kosh_event_store_append_seconds',
    help: 'Duration of one append to the event store',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const readYourWritesWait = new Histogram({
    name: 'kosh_read_your_writes_wait_seconds',
    help: 'How long a command waited for its read models (outcome: reached or timeout)',
    labelNames: ['outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  const answerCache = new Counter({
    name: 'kosh_answer_cache_total',
    help: 'Live reads by route and how the answer cache served them (hit, miss, not_modified)',
    labelNames: ['route', 'outcome'] as const,
    registers: [registry],
  });

  // One status read per scrape, shared by the gauges below (the registry collects them at once).
  let statusRead: { at: number; statuses: Promise<ProjectionStatus[]> } | null = null;
  const statuses = () => {
    if (!statusRead || Date.now() - statusRead.at > 1000) {
      statusRead = { at: Date.now(), statuses: deps.runner.status() };
    }
    return statusRead.statuses;
  };
  const projectionGauge = (
    name: string,
    help: string,
    labelNames: readonly string[],
    fill: (set: (labels: Record<string, string>, value: number) => void, s: ProjectionStatus) => void,
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const list = await statuses().catch(() => []);
        this.reset();
        for (const s of list) fill((labels, value) => this.set(labels, value), s);
      },
    });
  projectionGauge(
    'kosh_projection_lag_events',
    'Events after the projection checkpoint (counted up to 10000)',
    ['projection'],
    (set, s) => set({ projection: s.name }, s.lagEvents),
  );
  projectionGauge(
    'kosh_projection_lag_seconds',
    'Age of the oldest event the projection has not applied',
    ['projection'],
    (set, s) => set({ projection: s.name }, s.lagSeconds),
  );
  projectionGauge(
    'kosh_projection_stopped',
    '1 when the projection is stopped on a dead letter',
    ['projection'],
    (set, s) => set({ projection: s.name }, s.status === 'stopped' ? 1 : 0),
  );
  projectionGauge(
    'kosh_projection_dead_letter',
    'The event a stopped projection stopped on (value 1)',
    ['projection', 'event_id', 'position'],
    (set, s) => {
      if (s.deadLetter)
        set({ projection: s.name, event_id: s.deadLetter.eventId, position: s.deadLetter.position }, 1);
    },
  );
  new Gauge({
    name: 'kosh_queue_depth',
    help: 'Jobs waiting, delayed or running in the queue (-1 when it does not answer)',
    registers: [registry],
    async collect() {
      this.set(await deps.queue.depth().catch(() => -1));
    },
  });
  return { registry, httpDuration, appendDuration, readYourWritesWait, answerCache };
}
