import type { KeyObject } from 'node:crypto';
import path from 'node:path';
import type { Db, EventStore } from '@kosh/event-store';
import type { ProjectionRunner } from '@kosh/projections';
import type { FastifyBaseLogger } from 'fastify';

export const repoRoot = path.resolve(new URL('.', import.meta.url).pathname, '../..');

/**
 * The settings the HTTP app reads. @kosh/platform validates the whole configuration at boot and
 * hands it in; the app names only what it uses, so it depends on no process assembly.
 */
export interface ApiConfig {
  readonly NODE_ENV: 'development' | 'production' | 'test';
  /** Public address of the web app (security headers, mailed links). */
  readonly APP_URL: string;
  readonly JWT_SECRET: string;
  readonly UPLOADS_DIR: string;
  readonly READ_YOUR_WRITES_TIMEOUT_MS: number;
  /** Level of the one log line per API request (web files and probes: always debug). */
  readonly REQUEST_LOG_LEVEL: 'info' | 'debug';
  /** Memory per family of cached live answers (MB; 0: none kept). */
  readonly ANSWER_CACHE_MB: number;
  /** Rows of one CSV export of the transaction book at most; more is refused (422), never cut. */
  readonly EXPORT_MAX_ROWS: number;
  readonly RATE_LIMIT_ENABLED: boolean;
  readonly DOCS_ENABLED: boolean;
  readonly TRUST_PROXY: string[];
  readonly METRICS_TOKEN?: string | undefined;
  readonly EVENTSTORE_URL?: string | undefined;
}

/** What the app records and serves at `/metrics` (prom-client's objects satisfy it). */
export interface ApiMetrics {
  readonly registry: { readonly contentType: string; metrics(): Promise<string> };
  readonly httpDuration: {
    observe(labels: { method: string; route: string; status_code: string }, seconds: number): void;
  };
  readonly appendDuration: { startTimer(): () => unknown };
  /** Read-your-writes waits by outcome; a wait already reached in this process counts 0 s. */
  readonly readYourWritesWait?: {
    observe(labels: { outcome: 'reached' | 'timeout' }, seconds: number): void;
  };
  /** Live reads by how the answer cache served them (reads/answer-cache.ts). */
  readonly answerCache?: { inc(labels: { route: string; outcome: 'hit' | 'miss' | 'not_modified' }): void };
}

/**
 * Everything a request handler may use, chosen once at start by @kosh/platform (no
 * `if (embedded)` inside handlers: ARCHITECTURE.md "Deployment shapes"). The app sees ports, not
 * the adapters behind them.
 */
export interface Platform {
  readonly config: ApiConfig;
  readonly logger: FastifyBaseLogger;
  /** Read models (and, with the PostgreSQL event store, the event log). */
  readonly db: Db;
  readonly eventStore: EventStore;
  /** Readiness asks whether the job queue answers. */
  readonly queue: { ping(): Promise<boolean> };
  readonly runner: ProjectionRunner;
  readonly metrics: ApiMetrics;
  /** Signs history exports; null where none is configured (the export answers 503). */
  readonly exportSigningKey: KeyObject | null;
  /** The only clock handlers read; tests replace it. */
  clock: () => Date;
  /**
   * After an append: wakes every projection, then waits (bounded by READ_YOUR_WRITES_TIMEOUT_MS)
   * until those named have reached `position`. Resolves false on timeout.
   */
  afterAppend(position: string, waitFor: readonly string[]): Promise<boolean>;
  /**
   * Waits as `afterAppend` until `names` hold every event this process has appended or heard of
   * (its own appends, the store's NOTIFY): a read of a read model that commands do not wait for
   * (history) shows the caller's own writes, whichever process catches it up. Resolves true
   * at once when nothing was heard yet.
   */
  readModelsCurrent(names: readonly string[]): Promise<boolean>;
  /** Seals a mailed link token for the event, so that only the mail worker can open it. */
  sealToken(token: string): string;
  /** The claim of a reminder's signed unsubscribe token, or null when it is not one of ours. */
  openUnsubscribeToken(token: string): { userId: string; kind: string; tokenId: string } | null;
}
