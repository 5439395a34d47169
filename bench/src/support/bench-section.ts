/** What a section of `npm run bench:eventstore` runs against and reports (`eventstore.ts`). */
import type { Db, EventStore } from '@kosh/event-store';

export type BenchTarget = {
  name: 'postgres' | 'pglite';
  db: Db;
  store: EventStore;
  /** Scale factor for counts: PGlite is one connection in WASM, so its runs are smaller. */
  scale: number;
  close(): Promise<void>;
};

export type BenchSection = {
  id: string;
  run(target: BenchTarget): Promise<BenchResult>;
};

export type BenchResult = {
  label: string;
  events: number;
  seconds: number;
  /** Per-call latencies in ms (appends), when measured. */
  latenciesMs?: number[];
  note?: string;
};
