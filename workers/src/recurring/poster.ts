import { createHash } from 'node:crypto';
import {
  accountDecider,
  accountStreamId,
  addDays,
  calendarDateOf,
  categoryDecider,
  categoryStreamId,
  occurrencesBetween,
  occurrenceValues,
  type RecordedEvent,
  type RecurringEvent,
  recurringDecider,
  recurringStreamId,
  type TransactionRecorded,
  transactionDecider,
  transactionStreamId,
} from '@kosh/domain';
import { ConcurrencyError, type EventStore, type Queryable } from '@kosh/event-store';
import { type Projection, postedOccurrences, recurringActiveBetween } from '@kosh/projections';
import type { JobQueue } from '../queue/port';

/** The repeated scan of every entry (occurrences that came due as the days passed). */
export const RECURRING_POST_JOB = 'recurring:post';
/** One entry, right after the user changed it (so today's occurrence posts at once). */
export const RECURRING_POST_ENTRY_JOB = 'recurring:post-entry';
/** How often the scan runs: an occurrence is posted at most this long after midnight India time. */
export const RECURRING_POST_EVERY_MS = 10 * 60 * 1000;
/**
 * How far back a run posts occurrences it finds unposted: 92 days, a quarter. A server down
 * for less posts everything it missed on its next run; older occurrences are not posted (the
 * user records them by hand). Nor is any occurrence dated before the entry was created.
 */
export const RECURRING_CATCH_UP_DAYS = 92;

/**
 * The transaction id of an entry's occurrence: the same for every run, process and retry (a
 * UUID made of SHA-256 of the pair, version nibble 5). Its stream is appended with "no stream",
 * so exactly one poster records it; every other gets a conflict and does nothing.
 */
export function recurringTransactionId(recurringId: string, occurrenceDate: string): string {
  const hex = createHash('sha256').update(`recurring:${recurringId}:${occurrenceDate}`).digest('hex');
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export type PosterDeps = {
  db: Queryable;
  eventStore: EventStore;
  clock: () => Date;
  logger?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
};

/** The user's own open account, else null (a posting never names a deleted or foreign account). */
async function openAccountOf(deps: PosterDeps, userId: string, accountId: string | null | undefined) {
  if (!accountId) return null;
  const { events } = await deps.eventStore.readStream(accountStreamId(accountId));
  const state = events.reduce((s, e) => accountDecider.evolve(s, e as never), accountDecider.initialState());
  return state.status === 'open' && state.userId === userId ? accountId : null;
}

/** The user's live category, else null (one deleted or merged since the entry was made). */
async function liveCategoryOf(deps: PosterDeps, userId: string, categoryId: string | null | undefined) {
  if (!categoryId) return null;
  const { events } = await deps.eventStore.readStream(categoryStreamId(userId));
  const state = events.reduce(
    (s, e) => categoryDecider.evolve(s, e as never),
    categoryDecider.initialState(),
  );
  return state.status === 'seeded' && state.categories.has(categoryId) ? categoryId : null;
}

/**
 * Posts every due, unposted, unskipped occurrence of one entry up to today (India), from the
 * entry's own stream (its skips and changes as of now, whatever the read model shows).
 * Returns how many this run recorded.
 */
export async function postEntryOccurrences(
  deps: PosterDeps,
  recurringId: string,
  alreadyPosted: ReadonlySet<string> = new Set(),
): Promise<number> {
  const { events } = await deps.eventStore.readStream(recurringStreamId(recurringId));
  const state = (events as unknown as RecordedEvent<RecurringEvent>[]).reduce(
    recurringDecider.evolve,
    recurringDecider.initialState(),
  );
  if (state.status !== 'active') return 0;
  const now = deps.clock();
  const today = calendarDateOf(now);
  const created = calendarDateOf(new Date(state.createdAt));
  const catchUpFrom = addDays(today, -RECURRING_CATCH_UP_DAYS);
  const from = created > catchUpFrom ? created : catchUpFrom;
  const due = occurrencesBetween(state.details, from, today).filter((date) => !alreadyPosted.has(date));
  let posted = 0;
  for (const date of due) {
    const values = occurrenceValues(state.details, state.exceptions, date);
    if (!values) continue;
    const transactionId = recurringTransactionId(recurringId, date);
    const accountId = await openAccountOf(deps, state.userId, state.details.accountId);
    const categoryId = await liveCategoryOf(deps, state.userId, state.details.categoryId);
    const [recorded] = transactionDecider.decide(
      {
        type: 'RecordTransaction',
        data: {
          transactionId,
          userId: state.userId,
          transactionType: state.details.transactionType,
          transactionDate: date,
          amount: values.amount,
          notes: values.notes,
          accountId,
          categoryId,
          payee: state.details.payee ?? null,
          now: now.toISOString(),
        },
      },
      transactionDecider.initialState(),
    ) as [TransactionRecorded];
    try {
      await deps.eventStore.appendToStream(
        transactionStreamId(transactionId),
        [
          {
            // The same id on a retry: a lost answer to a stored append is not a second event.
            id: transactionId,
            type: recorded.type,
            data: { ...recorded.data, recurringId, occurrenceDate: date },
            metadata: {
              userId: state.userId,
              correlationId: `recurring-${recurringId}-${date}`,
              causationId: null,
              recordedAt: now.toISOString(),
              schemaVersion: 1,
            },
          },
        ],
        { expectedVersion: 'no_stream' },
      );
      posted++;
      deps.logger?.info({ recurringId, occurrenceDate: date, transactionId }, 'recurring occurrence posted');
    } catch (error) {
      // Another run or process posted it first (or the user deleted the posted transaction).
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }
  return posted;
}

/** One run of the scan: every entry with an occurrence due within the catch-up window. */
export async function postDueOccurrences(deps: PosterDeps): Promise<number> {
  const today = calendarDateOf(deps.clock());
  const from = addDays(today, -RECURRING_CATCH_UP_DAYS);
  const entries = await recurringActiveBetween(deps.db, from, today);
  const posted = new Map<string, Set<string>>();
  for (const p of await postedOccurrences(
    deps.db,
    entries.map((e) => e.id),
    from,
  )) {
    const dates = posted.get(p.recurringId) ?? new Set<string>();
    dates.add(p.occurrenceDate);
    posted.set(p.recurringId, dates);
  }
  let count = 0;
  for (const entry of entries) {
    const done = posted.get(entry.id) ?? new Set<string>();
    const due = occurrencesBetween(entry, from, today).filter(
      (date) => !done.has(date) && entry.exceptions[date]?.kind !== 'skipped',
    );
    if (due.length > 0) count += await postEntryOccurrences(deps, entry.id, done);
  }
  return count;
}

const ENTRY_EVENTS = [
  'RecurringEntryCreated',
  'RecurringEntryUpdated',
  'RecurringOccurrenceRestored',
] as const;

/**
 * A consumer of the log (own checkpoint, like the mail reactor; no tables, never rebuilt) that asks
 * for one entry's posting when the user creates or changes it, so an occurrence due today is
 * posted at once rather than at the next scan.
 */
export function createRecurringReactor(deps: { queue: JobQueue }): Projection {
  return {
    name: 'recurring-poster',
    handles: ENTRY_EVENTS,
    tables: [],
    async apply(_tx, events) {
      for (const event of events) {
        if (!(ENTRY_EVENTS as readonly string[]).includes(event.type)) continue;
        const { recurringId } = event.data as { recurringId: string };
        await deps.queue.enqueue(
          RECURRING_POST_ENTRY_JOB,
          { recurringId },
          { jobId: `recurring-post-${recurringId}`, attempts: 5, backoffMs: 1000 },
        );
      }
    },
  };
}

export async function registerRecurringJobs(
  queue: JobQueue,
  deps: PosterDeps,
  options: { everyMs?: number } = {},
): Promise<void> {
  queue.process(RECURRING_POST_JOB, async () => {
    await postDueOccurrences(deps);
  });
  queue.process(RECURRING_POST_ENTRY_JOB, async (data) => {
    await postEntryOccurrences(deps, (data as { recurringId: string }).recurringId);
  });
  await queue.schedule(RECURRING_POST_JOB, options.everyMs ?? RECURRING_POST_EVERY_MS);
}
