import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { toSnakeKey } from '@kosh/contract';
import { type Command, type Decider, type DomainEvent, type FieldError, ValidationError } from '@kosh/domain';
import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import {
  type CommandContext,
  type HandleResult,
  handleCommand,
  parseIfMatch,
  READ_MODEL_LAG_HEADER,
} from './handle';

/** Who acts and how to answer, from the request: its id follows the events as correlation id. */
export function commandContext(
  request: FastifyRequest,
  /** `reply` receives `X-Event-Position`; `userId` when acting for someone other than the caller. */
  options: { reply?: FastifyReply; userId?: string | null } = {},
): CommandContext {
  return {
    platform: request.server.platform,
    userId: options.userId !== undefined ? options.userId : request.userId || null,
    reply: options.reply,
    correlationId: request.id,
  };
}

/** The domain names fields in camelCase; a 422 names the field the client sent (first_name). */
export function wireFieldErrors(errors: readonly FieldError[]): FieldError[] {
  return errors.map((error) => ({ field: toSnakeKey(error.field), message: error.message }));
}

/**
 * The row a command's answer shows: the read model's, once it includes the command's events,
 * else the projection's own fold over the stream's events, and the answer says so
 * (X-Read-Model-Lag). A read model out of reach is answered like one lagging behind: the events
 * are stored.
 */
export async function readOrFold<Row>(
  reply: FastifyReply,
  source: {
    read: () => Promise<Row | null>;
    /** The read model's row includes the command's events. */
    current: (row: Row) => boolean;
    fold: () => Row | null | Promise<Row | null>;
  },
): Promise<Row | null> {
  const projected = await source.read().catch(() => null);
  if (projected && source.current(projected)) return projected;
  const folded = await source.fold();
  if (folded) reply.header(READ_MODEL_LAG_HEADER, 'true');
  return folded;
}

/** A request of a route with schema `S`, typed as the TypeBox provider types it. */
export type CommandRequest<S extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  S,
  TypeBoxTypeProvider
>;

/** What a route's handler may return: a body its response schema allows. */
type AnswerOf<S extends FastifySchema> = ReturnType<
  RouteHandlerMethod<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    ContextConfigDefault,
    S,
    TypeBoxTypeProvider
  >
>;

/** The aggregate a group of command routes writes to, and the read models its answers read. */
export type CommandStream<State, C extends Command, E extends DomainEvent> = {
  decider: Decider<State, C, E>;
  streamId: (command: C, request: FastifyRequest) => string;
  /**
   * The read models the answer and the screens shown next read: the command answers once they
   * include its events (bounded wait; DESIGN.md "Read your own writes").
   */
  waitFor: readonly string[];
};

export type CommandRouteOptions<S extends FastifySchema, State, C extends Command, E extends DomainEvent> = {
  method: 'POST' | 'PUT' | 'DELETE';
  url: string;
  schema: S;
  /** Status of a successful answer. Default 200. */
  status?: 200 | 201;
  /** Honours `Idempotency-Key`: a retry answers the first answer and records nothing. */
  idempotent?: boolean;
  /**
   * Honours `If-Match` (the version from a GET): another current version is a 409. A function
   * says per command whether that version is the stream's (true), or the command carries it to
   * its decider itself (false: an imported row's version is its own, not its import stream's).
   */
  ifMatch?: boolean | ((command: C) => boolean);
  /** The command writes a stream of a fresh random id: nothing to load first (handle.ts). */
  newStream?: boolean;
  /**
   * Answer once stored, before the stream's `waitFor` read models hold the events; the user's
   * next request waits for them instead (plugins/own-writes.ts). Only for a command that reads
   * no read model such a write changes, and whose answer is folded from the stream.
   */
  answerEarly?: boolean;
  /** Hooks and limits of the route besides its schema. */
  options?: Pick<RouteShorthandOptions, 'onRequest' | 'preHandler'>;
  /** Work on other streams once the command is decided, before its events are stored (handle.ts). */
  beforeAppend?: (
    decision: { events: readonly E[]; command: C },
    request: CommandRequest<S>,
  ) => Promise<void>;
  /**
   * The command the request asks for; what it throws (401, 404, 422) records nothing. Whether the
   * record is the caller's is the decider's to say (its 404), from the one read of the stream.
   */
  command: (request: CommandRequest<S>, now: string) => C | Promise<C>;
  answer: (
    result: CommandOutcome<State, C, E>,
    request: CommandRequest<S>,
    reply: FastifyReply,
  ) => AnswerOf<S>;
};

/** What a command did, with the command itself (its ids). */
export type CommandOutcome<State, C extends Command, E extends DomainEvent> = HandleResult<State, E> & {
  command: C;
};

/**
 * Declares the command routes of one aggregate: each takes the signed-in user, the request id
 * and the reply from the request, runs load -> decide -> append (handle.ts) and answers.
 */
export function commandRoutes<State, C extends Command, E extends DomainEvent>(
  app: FastifyInstance,
  stream: CommandStream<State, C, E>,
) {
  return function commandRoute<const S extends FastifySchema>(
    route: CommandRouteOptions<S, State, C, E>,
  ): void {
    app.route({
      method: route.method,
      url: route.url,
      schema: route.schema as FastifySchema,
      ...route.options,
      config: {
        ...(route.idempotent && { idempotent: true }),
        ...(route.answerEarly && { skipsOwnWrites: true }),
      },
      handler: async (rawRequest: FastifyRequest, reply: FastifyReply) => {
        const request = rawRequest as CommandRequest<S>;
        const command = await route.command(request, request.server.platform.clock().toISOString());
        const { beforeAppend } = route;
        const ctx = commandContext(request, { reply });
        const { userId } = ctx;
        if (route.answerEarly && userId) {
          ctx.answerEarly = (position, readModels) =>
            request.server.ownWrites.stored(userId, position, readModels);
        }
        const result = await handleCommand(ctx, {
          streamId: stream.streamId(command, request),
          decider: stream.decider,
          command,
          expectedVersion:
            route.ifMatch === true || (typeof route.ifMatch === 'function' && route.ifMatch(command))
              ? parseIfMatch(request.headers['if-match'])
              : undefined,
          waitFor: stream.waitFor,
          newStream: route.newStream,
          beforeAppend:
            beforeAppend && ((events: readonly E[]) => beforeAppend({ events, command }, request)),
        }).catch((error: unknown) => {
          if (error instanceof ValidationError) {
            throw new ValidationError(wireFieldErrors(error.errors), error.message);
          }
          throw error;
        });
        const body = await route.answer({ ...result, command }, request, reply);
        return reply.status(route.status ?? 200).send(body);
      },
    });
  };
}
