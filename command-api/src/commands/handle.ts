import { randomUUID } from 'node:crypto';
import { type Command, ConflictError, type Decider, type DomainEvent, NotFoundError } from '@kosh/domain';
import { ConcurrencyError, type ExpectedVersion, type NewEvent } from '@kosh/event-store';
import type { FastifyReply } from 'fastify';
import type { Platform } from '../platform';

/** Who is acting and how to answer: what every command needs besides its own data. */
export type CommandContext = {
  platform: Platform;
  /** The signed-in user (owner of the events), or null for anonymous commands such as register. */
  userId: string | null;
  /** Receives `X-Event-Position`. */
  reply?: FastifyReply;
  /** The request's id (route.ts `commandContext`); commands outside a request get a fresh one. */
  correlationId?: string;
  /**
   * Answer once the events are stored, before the read models of `waitFor` hold them: they are
   * handed here (the own-writes plugin, which starts their catch-up and makes the user's next
   * request wait for it) instead of being waited for (ARCHITECTURE.md "Read your own writes").
   */
  answerEarly?: (position: string, readModels: readonly string[]) => void;
};

/**
 * `caughtUp`: the read models named in `waitFor` include the events (else the answer says so;
 * an early answer always does: they do not yet).
 */
export type AppendOutcome = { nextVersion: number; position: string | null; caughtUp: boolean };

/** Header on a command's answer built from the aggregate because its read models still lag. */
export const READ_MODEL_LAG_HEADER = 'X-Read-Model-Lag';

export const STALE_VERSION_MESSAGE = 'This record was changed elsewhere. Reload it and try again.';

/**
 * Appends already-decided events to one stream, then makes the write visible:
 * wakes every projection and waits (bounded) until those named in `waitFor` reached it.
 */
export async function appendEvents(
  ctx: CommandContext,
  streamId: string,
  events: readonly DomainEvent[],
  options: { expectedVersion: ExpectedVersion; waitFor?: readonly string[]; eventIds?: readonly string[] },
): Promise<AppendOutcome> {
  if (events.length === 0) return { nextVersion: -1, position: null, caughtUp: true };
  const { platform } = ctx;
  const recordedAt = platform.clock().toISOString();
  // The request's id (X-Request-Id or generated) follows the events into projection and mail logs.
  const correlationId = ctx.correlationId ?? randomUUID();
  const toAppend: NewEvent[] = events.map((event, i) => ({
    id: options.eventIds?.[i] ?? randomUUID(),
    type: event.type,
    data: event.data,
    metadata: { userId: ctx.userId, correlationId, causationId: null, recordedAt, schemaVersion: 1 },
  }));
  const stopTimer = platform.metrics.appendDuration.startTimer();
  const result = await platform.eventStore
    .appendToStream(streamId, toAppend, { expectedVersion: options.expectedVersion })
    .finally(() => stopTimer());
  const waitFor = options.waitFor ?? [];
  let caughtUp: boolean;
  if (ctx.answerEarly && waitFor.length > 0) {
    ctx.answerEarly(result.position, waitFor);
    caughtUp = false;
  } else {
    caughtUp = await platform.afterAppend(result.position, waitFor);
  }
  ctx.reply?.header('X-Event-Position', result.position);
  if (!caughtUp) ctx.reply?.header(READ_MODEL_LAG_HEADER, 'true');
  return { nextVersion: result.nextVersion, position: result.position, caughtUp };
}

/** An event of a stream with its version: what the projections' pure folds take. */
export type StreamEvent<E extends DomainEvent> = E & { readonly streamVersion: number };

/** Current state of a stream by folding its events. */
export async function loadAggregate<State, E extends DomainEvent>(
  platform: Platform,
  streamId: string,
  decider: Pick<Decider<State, Command, E>, 'initialState' | 'evolve'>,
): Promise<{ state: State; version: number; history: StreamEvent<E>[] }> {
  const { version, events } = await platform.eventStore.readStream(streamId);
  const history = events as unknown as StreamEvent<E>[];
  const state = history.reduce((s, e) => decider.evolve(s, e), decider.initialState());
  return { state, version, history };
}

export type HandleOptions<State, C extends Command, E extends DomainEvent> = {
  streamId: string;
  decider: Decider<State, C, E>;
  command: C;
  /** Version the client last saw (If-Match). When given, a different current version is a 409. */
  expectedVersion?: number;
  /** Read models the answer reads; the command returns once they include its events. */
  waitFor?: readonly string[];
  /**
   * The stream's id was made up for this command (a fresh random id): there is nothing to load,
   * and the append expects no stream. Should it exist after all, the append's conflict loads it
   * and decides again.
   */
  newStream?: boolean;
  /**
   * Work on other streams the decision needs done before its own events are stored (a deleted
   * debit releases its EMI matches first). Runs only once the command is decided, so a refusal
   * (404, 409, 422) touches no stream; after a concurrent writer it runs again with the new decision.
   */
  beforeAppend?: (events: readonly E[]) => Promise<void>;
};

/**
 * `history`: every event of the stream including the new ones, so an answer can be folded with
 * the read model's own pure fold when the read model has not caught up (DESIGN.md "Projections").
 */
export type HandleResult<State, E extends DomainEvent> = AppendOutcome & {
  events: E[];
  state: State;
  history: StreamEvent<E>[];
};

/**
 * The decider's events for `command`. Ownership is the decider's: another user's record answers
 * its 404 like a missing one, and that answer comes before a stale If-Match version (409), so no
 * answer tells that someone else's record exists. Any other refusal comes after the version check.
 */
function decided<State, C extends Command, E extends DomainEvent>(
  decider: Decider<State, C, E>,
  command: C,
  state: State,
  expectedVersion: number | undefined,
  version: number,
): E[] {
  let decision: { events: E[] } | { refusal: unknown };
  try {
    decision = { events: decider.decide(command, state) };
  } catch (error) {
    if (error instanceof NotFoundError) throw error;
    decision = { refusal: error };
  }
  if (expectedVersion !== undefined && expectedVersion !== version) {
    throw new ConflictError(STALE_VERSION_MESSAGE, 'STALE_VERSION');
  }
  if ('refusal' in decision) throw decision.refusal;
  return decision.events;
}

/**
 * load -> decide -> append (DESIGN.md). Without an If-Match version, a concurrent writer makes us
 * reload and decide again (a few times); with one, the conflict is the client's to resolve (409).
 */
export async function handleCommand<State, C extends Command, E extends DomainEvent>(
  ctx: CommandContext,
  options: HandleOptions<State, C, E>,
): Promise<HandleResult<State, E>> {
  const { decider, streamId } = options;
  for (let attempt = 0; ; attempt++) {
    const { state, version, history } =
      options.newStream && attempt === 0
        ? { state: decider.initialState(), version: 0, history: [] as StreamEvent<E>[] }
        : await loadAggregate(ctx.platform, streamId, decider);
    const events = decided(decider, options.command, state, options.expectedVersion, version);
    const newState = events.reduce(decider.evolve, state);
    try {
      await options.beforeAppend?.(events);
      const outcome = await appendEvents(ctx, streamId, events, {
        expectedVersion: version === 0 ? 'no_stream' : version,
        waitFor: options.waitFor,
      });
      return {
        ...outcome,
        nextVersion: events.length ? outcome.nextVersion : version,
        events,
        state: newState,
        history: [...history, ...events.map((e, i) => ({ ...e, streamVersion: version + i + 1 }))],
      };
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      if (options.expectedVersion !== undefined || attempt >= 2) {
        throw new ConflictError(STALE_VERSION_MESSAGE, 'STALE_VERSION');
      }
    }
  }
}

/** Parses an `If-Match` header carrying a stream version as ETag (`"3"` or `W/"3"`). */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (!header) return undefined;
  const match = /^(?:W\/)?"?(\d+)"?$/.exec(header.trim());
  if (!match) throw new ConflictError(STALE_VERSION_MESSAGE, 'STALE_VERSION');
  return Number(match[1]);
}

export function etagOf(version: number): string {
  return `"${version}"`;
}
