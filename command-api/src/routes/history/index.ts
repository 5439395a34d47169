import { createPublicKey } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ExportUnavailable,
  errorResponses,
  HistoryQuery,
  HistoryResponse,
  ItemHistoryQuery,
  LoanParams,
  PublicKeyResponse,
  ScheduleDiffQuery,
  ScheduleDiffResponse,
  ScheduleVersionsResponse,
  type WireVersion,
} from '@kosh/contract';
import {
  type FieldError,
  fromPaise,
  LOAN_NOT_FOUND,
  loanStreamId,
  NotFoundError,
  TRANSACTION_NOT_FOUND,
  transactionStreamId,
  ValidationError,
} from '@kosh/domain';
import {
  diffSchedules,
  HISTORY_EVENT_TYPES,
  type HistoryFilter,
  historyPage,
  ownsStream,
  type ScheduleVersion,
  scheduleVersions,
  scheduleVersionsWithRows,
  streamIdOfWire,
  type TimelineEntry,
} from '@kosh/projections';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { exportStream, publicKeyOf } from '../../history/export';
import { capped, parseInstant } from '../../reads/read-at';
import { toWireRow } from '../loans/wire';

export const HISTORY_MESSAGES = {
  stream: 'Stream must be loan:{id}, transaction:{id} or profile',
  type: 'Type must be one of the event types of the history',
  from: 'From must be a date (YYYY-MM-DD) or a date and time',
  to: 'To must be a date (YYYY-MM-DD) or a date and time',
  range: 'To must not be before From',
  version: 'Must be a schedule version of this loan',
  cursor: 'Cursor must be the next_cursor of a previous page',
  limit: 'Limit must be a whole number from 1 to 100',
} as const;

const POSITION = /^[0-9:]{1,64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TYPES = new Set(HISTORY_EVENT_TYPES);

/** The page filters, each bad one a per-field message. */
export function parseHistoryQuery(
  query: Partial<Record<'stream' | 'type' | 'from' | 'to' | 'cursor' | 'limit', string>>,
  userId: string,
): HistoryFilter {
  const errors: FieldError[] = [];
  const text = (key: keyof typeof query) => query[key]?.trim() || null;
  const stream = text('stream');
  const streamId = stream === null ? null : streamIdOfWire(stream, userId);
  if (stream !== null && streamId === null)
    errors.push({ field: 'stream', message: HISTORY_MESSAGES.stream });
  const type = text('type');
  if (type !== null && !TYPES.has(type)) errors.push({ field: 'type', message: HISTORY_MESSAGES.type });
  const instant = (key: 'from' | 'to') => {
    const value = text(key);
    if (value === null) return null;
    const parsed = parseInstant(value, key === 'to');
    if (parsed === 'invalid') {
      errors.push({ field: key, message: HISTORY_MESSAGES[key] });
      return null;
    }
    return parsed.toISOString();
  };
  const from = instant('from');
  const to = instant('to');
  if (from && to && to < from) errors.push({ field: 'to', message: HISTORY_MESSAGES.range });
  const cursor = text('cursor');
  if (cursor !== null && !POSITION.test(cursor))
    errors.push({ field: 'cursor', message: HISTORY_MESSAGES.cursor });
  const limitText = text('limit');
  const limit = limitText === null ? 20 : Number(limitText);
  if (limitText !== null && !(/^\d{1,3}$/.test(limitText) && limit >= 1 && limit <= 100)) {
    errors.push({ field: 'limit', message: HISTORY_MESSAGES.limit });
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return { streamId, type, from, to, before: cursor, limit };
}

const toWireVersion = (v: ScheduleVersion) => ({
  version: v.version,
  generated_at: v.generatedAt,
  reason: v.reason as WireVersion['reason'],
  why: v.why,
  emi: fromPaise(v.emi),
  number_of_payments: v.totals.numberOfPayments,
  total_interest: fromPaise(v.totals.interest),
  total_gst: fromPaise(v.totals.gst),
  total_outflow: fromPaise(v.totals.emi),
});

const toWire = (e: TimelineEntry) => ({
  position: e.position,
  recorded_at: e.recordedAt,
  stream: e.stream,
  type: e.type,
  summary: e.summary,
  changes: e.changes,
  correlation_id: e.correlationId,
});

const tags = ['History'];
const security = [{ bearerAuth: [] }];

/** Issue 14: the caller's timeline, item histories, and the signed export. */
export async function historyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  const signingKey = platform.exportSigningKey;
  // Commands do not wait for the history read model (most wait only for what their answer
  // reads): its reads wait, bounded, until it holds every event this process has stored or
  // heard of, so a History read shows the caller's own writes.
  app.addHook('preHandler', async () => {
    await platform.readModelsCurrent(['history']);
  });

  /** An auditor's as-of limit hides what was recorded after it. */
  async function page(request: FastifyRequest, filter: HistoryFilter) {
    const limit = capped(null, request, platform.clock())?.toISOString();
    const to = limit && (!filter.to || filter.to > limit) ? limit : filter.to;
    const { entries, nextCursor } = await historyPage(platform.db, request.userId, { ...filter, to });
    return { success: true as const, data: { entries: entries.map(toWire), next_cursor: nextCursor } };
  }

  app.get(
    '/history',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Your events, newest first, each with what it changed (money in rupees)',
        querystring: HistoryQuery,
        response: { 200: HistoryResponse, ...errorResponses(401, 422) },
      },
    },
    async (request) => page(request, parseHistoryQuery(request.query, request.userId)),
  );

  /**
   * One item's history; another user's item (or none) is a 404. A transaction's also holds the
   * events of other streams that moved it to another category (`categoryMoves`).
   */
  function itemHistory(
    path: string,
    streamOf: (id: string) => string,
    notFound: string,
    summary: string,
    categoryMoves = false,
  ) {
    app.get(
      path,
      {
        onRequest: app.authenticate,
        schema: {
          tags,
          security,
          summary,
          params: LoanParams,
          querystring: ItemHistoryQuery,
          response: { 200: HistoryResponse, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const { id } = request.params as { id: string };
        const streamId = streamOf(id);
        if (!UUID.test(id) || !(await ownsStream(platform.db, request.userId, streamId))) {
          throw new NotFoundError(notFound);
        }
        const filter = parseHistoryQuery(request.query as Record<string, string>, request.userId);
        return page(request, { ...filter, streamId, ...(categoryMoves && { movedTransactionId: id }) });
      },
    );
  }
  itemHistory('/loans/:id/history', loanStreamId, LOAN_NOT_FOUND, "A loan's history, deleted loans included");
  itemHistory(
    '/transactions/:id/history',
    transactionStreamId,
    TRANSACTION_NOT_FOUND,
    "A transaction's history, deleted ones included, with the rules applied, merges and EMI matches that moved it to another category",
    true,
  );

  /** The caller's loan stream (deleted loans included), or 404. */
  async function ownLoanStream(userId: string, id: string): Promise<string> {
    const streamId = loanStreamId(id);
    if (!UUID.test(id) || !(await ownsStream(platform.db, userId, streamId)))
      throw new NotFoundError(LOAN_NOT_FOUND);
    return streamId;
  }

  app.get(
    '/loans/:id/amortization/versions',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Every schedule the loan has had: version, when, why, and its figures',
        params: LoanParams,
        response: { 200: ScheduleVersionsResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const streamId = await ownLoanStream(request.userId, request.params.id);
      const versions = await scheduleVersions(platform.db, request.userId, streamId);
      return { success: true as const, data: { versions: versions.map(toWireVersion) } };
    },
  );

  app.get(
    '/loans/:id/amortization/diff',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary:
          'What changed between two schedule versions: EMI, tenure, interest, GST, outflow, and the rows',
        params: LoanParams,
        querystring: ScheduleDiffQuery,
        response: { 200: ScheduleDiffResponse, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const { userId } = request;
      const streamId = await ownLoanStream(userId, request.params.id);
      const wanted = { from: request.query.from?.trim() ?? '', to: request.query.to?.trim() ?? '' };
      const numbers = {
        from: /^\d{1,6}$/.test(wanted.from) ? Number(wanted.from) : -1,
        to: /^\d{1,6}$/.test(wanted.to) ? Number(wanted.to) : -1,
      };
      const found = await scheduleVersionsWithRows(platform.db, userId, streamId, [numbers.from, numbers.to]);
      const from = found.get(numbers.from);
      const to = found.get(numbers.to);
      const errors: FieldError[] = [];
      if (!from) errors.push({ field: 'from', message: HISTORY_MESSAGES.version });
      if (!to) errors.push({ field: 'to', message: HISTORY_MESSAGES.version });
      if (!from || !to) throw new ValidationError(errors);
      const d = diffSchedules(from, to);
      const figure = (f: { from: number; to: number; difference: number }) => ({
        from: fromPaise(f.from),
        to: fromPaise(f.to),
        difference: fromPaise(f.difference),
      });
      const loanId = request.params.id;
      return {
        success: true as const,
        data: {
          from: toWireVersion(from),
          to: toWireVersion(to),
          changes: {
            emi: figure(d.emi),
            tenure: d.tenure,
            total_interest: figure(d.totalInterest),
            total_gst: figure(d.totalGst),
            total_outflow: figure(d.totalOutflow),
          },
          rows: d.rows.map((r) => ({
            payment_number: r.paymentNumber,
            from: r.from && toWireRow(loanId, from.version, r.from, r.index, undefined),
            to: r.to && toWireRow(loanId, to.version, r.to, r.index, undefined),
          })),
        },
      };
    },
  );

  const unavailable = { success: false as const, message: 'History export is not configured on this server' };

  app.get(
    '/export/public-key',
    {
      schema: {
        tags,
        summary: 'The public half of the key that signs history exports',
        response: { 200: PublicKeyResponse, 503: ExportUnavailable },
      },
    },
    async (_request, reply) => {
      if (!signingKey) return reply.status(503).send(unavailable);
      const pem = createPublicKey(signingKey).export({ format: 'pem', type: 'spki' }).toString();
      return {
        success: true as const,
        data: { algorithm: 'Ed25519' as const, public_key: publicKeyOf(signingKey), pem },
      };
    },
  );

  app.get(
    '/export/history',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary:
          'Your events as JSON Lines, each line with the SHA-256 of the one before, ending in an Ed25519-signed summary',
        response: { ...errorResponses(401), 503: ExportUnavailable },
      },
    },
    async (request, reply) => {
      if (!signingKey) return reply.status(503).send(unavailable);
      const now = platform.clock();
      const day = now.toISOString().slice(0, 10);
      return reply
        .header('Content-Type', 'application/x-ndjson; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="kosh-history-${day}.jsonl"`)
        .send(exportStream(platform.db, request.userId, signingKey, now.toISOString()) as never);
    },
  );
}
