import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AsOfQuery,
  errorResponses,
  OccurrenceChangeBody,
  OccurrenceParams,
  RecurringBody,
  RecurringDeletedResponse,
  RecurringListResponse,
  RecurringParams,
  RecurringResponse,
  UpcomingQuery,
  UpcomingResponse,
} from '@kosh/contract';
import {
  addDays,
  calendarDateOf,
  isUuid,
  NotFoundError,
  parseRecurring,
  RECURRING_MESSAGES,
  type RecurringCommand,
  type RecurringEvent,
  type RecurringInput,
  type RecurringState,
  recurringDecider,
  recurringStreamId,
  ValidationError,
} from '@kosh/domain';
import {
  evolveRecurringRow,
  getRecurring,
  listRecurring,
  postedOccurrences,
  type RecurringRow,
} from '@kosh/projections';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { etagOf } from '../../commands/handle';
import { type CommandOutcome, commandRoutes, readOrFold } from '../../commands/route';
import { readAt } from '../../reads/read-at';
import { ownsOpenAccount } from '../accounts/own-account';
import { ownsCategory } from '../categories/own-category';
import { occurrencesOf, recurringToWire } from './wire';

const tags = ['Recurring'];
const security = [{ bearerAuth: [] }];

export const UPCOMING_DAYS_MESSAGE = 'Days must be a whole number from 1 to 366';

/**
 * Issue 31: recurring entries (salary, rent, SIP, premiums). Each occurrence is posted as a
 * transaction by the workers (workers/src/recurring/poster.ts); here the user creates, edits and
 * deletes entries, and skips, changes or restores one occurrence. Another user's entry is a 404.
 */
export async function recurringRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  app.addHook('onRequest', app.authenticate);

  const notFound = () => new NotFoundError(RECURRING_MESSAGES.recurringNotFound);
  const today = (now: Date) => calendarDateOf(now);

  /** The entry's fields; its account and category must be the user's own (else 422 on that field). */
  async function details(userId: string, body: RecurringInput) {
    const parsed = parseRecurring(body);
    if (!parsed.ok) throw new ValidationError(parsed.errors);
    const { accountId, categoryId } = parsed.value;
    const [accountOk, categoryOk] = await Promise.all([
      !accountId || ownsOpenAccount(platform, userId, accountId),
      !categoryId || ownsCategory(platform, userId, categoryId),
    ]);
    const errors = [
      ...(accountOk ? [] : [{ field: 'account_id', message: RECURRING_MESSAGES.accountNotFound }]),
      ...(categoryOk ? [] : [{ field: 'category_id', message: RECURRING_MESSAGES.categoryNotFound }]),
    ];
    if (errors.length > 0) throw new ValidationError(errors);
    return parsed.value;
  }

  const recurringCommand = commandRoutes(app, {
    decider: recurringDecider,
    streamId: (command) => recurringStreamId(command.data.recurringId),
    waitFor: ['recurring'],
  });

  /** The entry as the list shows it: the read model's row once it has the events, else the fold. */
  const answer =
    (message: string) =>
    async (
      result: CommandOutcome<RecurringState, RecurringCommand, RecurringEvent>,
      request: { userId: string },
      reply: FastifyReply,
    ) => {
      const id = result.command.data.recurringId;
      const row = await readOrFold<RecurringRow>(reply, {
        read: () => getRecurring(platform.db, request.userId, id),
        current: (r) => r.version >= result.nextVersion,
        fold: () => {
          const folded = result.history.reduce(evolveRecurringRow, null);
          return folded && !folded.deleted ? folded : null;
        },
      });
      if (!row) throw notFound();
      const posted = await postedOccurrences(platform.db, [row.id], row.startDate);
      reply.header('ETag', etagOf(row.version));
      return {
        success: true as const,
        message,
        data: { recurring: recurringToWire(row, posted, today(platform.clock())) },
      };
    };

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: 'The recurring entries, each with its next occurrence',
        querystring: AsOfQuery,
        response: { 200: RecurringListResponse, ...errorResponses(401, 422) },
      },
    },
    async (request) =>
      readAt(platform, request, ['recurring'], async ({ db, now }) => {
        const rows = await listRecurring(db, request.userId);
        const posted = await postedOccurrences(
          db,
          rows.map((r) => r.id),
          today(now),
        );
        return {
          success: true as const,
          data: { recurring: rows.map((r) => recurringToWire(r, posted, today(now))) },
        };
      }),
  );

  app.get(
    '/upcoming',
    {
      schema: {
        tags,
        security,
        summary: 'Every occurrence from today to `days` ahead (default 60), with its status',
        querystring: UpcomingQuery,
        response: { 200: UpcomingResponse, ...errorResponses(401, 422) },
      },
    },
    async (request) =>
      readAt(platform, request, ['recurring'], async ({ db, now }) => {
        const text = request.query.days?.trim() || '60';
        if (!/^\d{1,3}$/.test(text) || Number(text) < 1 || Number(text) > 366)
          throw new ValidationError([{ field: 'days', message: UPCOMING_DAYS_MESSAGE }]);
        const from = today(now);
        const to = addDays(from, Number(text));
        const rows = await listRecurring(db, request.userId);
        const posted = await postedOccurrences(
          db,
          rows.map((r) => r.id),
          from,
        );
        const occurrences = rows
          .flatMap((row) => occurrencesOf(row, posted, from, to))
          .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.notes.localeCompare(b.notes)));
        return { success: true as const, data: { from, to, occurrences } };
      }),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One recurring entry (ETag: its version)',
        params: RecurringParams,
        response: { 200: RecurringResponse, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const row = isUuid(request.params.id)
        ? await getRecurring(platform.db, request.userId, request.params.id.toLowerCase())
        : null;
      if (!row) throw notFound();
      const posted = await postedOccurrences(platform.db, [row.id], row.startDate);
      reply.header('ETag', etagOf(row.version));
      return {
        success: true as const,
        data: { recurring: recurringToWire(row, posted, today(platform.clock())) },
      };
    },
  );

  recurringCommand({
    method: 'POST',
    url: '/',
    status: 201,
    idempotent: true,
    schema: {
      tags,
      security,
      summary: 'Create a recurring entry',
      body: RecurringBody,
      response: { 201: RecurringResponse, ...errorResponses(401, 422) },
    },
    newStream: true,
    command: async ({ userId, body }, now) => ({
      type: 'CreateRecurring',
      data: { ...(await details(userId, body)), recurringId: randomUUID(), userId, now },
    }),
    answer: answer('Recurring entry created successfully!'),
  });

  /** The entry's id from the path: a malformed one is "not found", like another user's. */
  const idOf = (id: string) => {
    if (!isUuid(id)) throw notFound();
    return id.toLowerCase();
  };

  recurringCommand({
    method: 'PUT',
    url: '/:id',
    ifMatch: true,
    schema: {
      tags,
      security,
      summary: 'Change a recurring entry (only what changed is recorded; If-Match honoured)',
      params: RecurringParams,
      body: RecurringBody,
      response: { 200: RecurringResponse, ...errorResponses(401, 404, 409, 422) },
    },
    command: async ({ userId, params, body }, now) => {
      const recurringId = idOf(params.id);
      return {
        type: 'UpdateRecurring',
        data: { ...(await details(userId, body)), recurringId, userId, now },
      };
    },
    answer: answer('Recurring entry updated successfully!'),
  });

  recurringCommand({
    method: 'DELETE',
    url: '/:id',
    ifMatch: true,
    schema: {
      tags,
      security,
      summary: 'Delete a recurring entry (what it posted stays in the book)',
      params: RecurringParams,
      response: { 200: RecurringDeletedResponse, ...errorResponses(401, 404, 409) },
    },
    command: ({ userId, params }, now) => ({
      type: 'DeleteRecurring',
      data: { recurringId: idOf(params.id), userId, now },
    }),
    answer: async () => ({
      success: true as const,
      message: 'Recurring entry deleted successfully!',
      data: null,
    }),
  });

  recurringCommand({
    method: 'POST',
    url: '/:id/occurrences/:date/skip',
    schema: {
      tags,
      security,
      summary: 'Skip one occurrence (it is not posted)',
      params: OccurrenceParams,
      response: { 200: RecurringResponse, ...errorResponses(401, 404, 422) },
    },
    command: ({ userId, params }, now) => ({
      type: 'SkipOccurrence',
      data: { recurringId: idOf(params.id), userId, now, occurrenceDate: params.date },
    }),
    answer: answer('Occurrence skipped'),
  });

  recurringCommand({
    method: 'PUT',
    url: '/:id/occurrences/:date',
    schema: {
      tags,
      security,
      summary: 'Change the amount or notes of one occurrence',
      params: OccurrenceParams,
      body: OccurrenceChangeBody,
      response: { 200: RecurringResponse, ...errorResponses(401, 404, 422) },
    },
    command: ({ userId, params, body }, now) => ({
      type: 'ChangeOccurrence',
      data: {
        recurringId: idOf(params.id),
        userId,
        now,
        occurrenceDate: params.date,
        amount: body.amount,
        notes: body.notes,
      },
    }),
    answer: answer('Occurrence changed'),
  });

  recurringCommand({
    method: 'DELETE',
    url: '/:id/occurrences/:date',
    schema: {
      tags,
      security,
      summary: "Restore one skipped or changed occurrence to the entry's values",
      params: OccurrenceParams,
      response: { 200: RecurringResponse, ...errorResponses(401, 404, 422) },
    },
    command: ({ userId, params }, now) => ({
      type: 'RestoreOccurrence',
      data: { recurringId: idOf(params.id), userId, now, occurrenceDate: params.date },
    }),
    answer: answer('Occurrence restored'),
  });
}
