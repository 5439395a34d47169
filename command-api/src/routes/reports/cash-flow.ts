import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CashFlowQuery, CashFlowResponse, errorResponses } from '@kosh/contract';
import { calendarDateOf, cashFlowForecast, cashFlowWindow, fromPaise, ValidationError } from '@kosh/domain';
import { listRecurring, postedOccurrences, unpaidEmisBetween } from '@kosh/projections';
import type { FastifyInstance } from 'fastify';
import { toCsv } from '../../csv';
import { readAt } from '../../reads/read-at';

const tags = ['Reports'];
const security = [{ bearerAuth: [] }];

export const CASH_FLOW_FORMAT_MESSAGE = 'Format must be json or csv';

/**
 * Issue 31, item 6: the cash-flow forecast for the next three calendar months (this one
 * included) from the recurring entries still to post and the loans' EMIs not yet paid (the
 * paid-EMI model). `as_of`: the forecast as it would have been made on that day, from the
 * entries, skips and payments recorded by then.
 */
export async function cashFlowRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/cash-flow',
    {
      schema: {
        tags,
        security,
        summary:
          'Cash-flow forecast for the next 3 months (recurring entries and unpaid EMIs); CSV with format=csv',
        querystring: CashFlowQuery,
        response: { 200: CashFlowResponse, ...errorResponses(401, 422) },
      },
    },
    async (request, reply) => {
      const format = request.query.format?.trim().toLowerCase() || 'json';
      if (format !== 'json' && format !== 'csv')
        throw new ValidationError([{ field: 'format', message: CASH_FLOW_FORMAT_MESSAGE }]);
      const forecast = await readAt(
        platform,
        request,
        ['recurring', 'loans', 'schedules'],
        async ({ db, now }) => {
          const from = calendarDateOf(now);
          const { to } = cashFlowWindow(from);
          const entries = await listRecurring(db, request.userId);
          const posted = await postedOccurrences(
            db,
            entries.map((e) => e.id),
            from,
          );
          const emis = await unpaidEmisBetween(db, request.userId, from, to, from);
          return cashFlowForecast(
            from,
            entries,
            new Set(posted.map((p) => `${p.recurringId}:${p.occurrenceDate}`)),
            emis,
          );
        },
      );
      if (format === 'csv') {
        const rupees = (paise: number) => (paise === 0 ? null : fromPaise(paise));
        const csv = toCsv(
          ['Date', 'Kind', 'Description', 'Inflow', 'Outflow'],
          [
            ...forecast.items.map((item) => [
              item.date,
              item.kind === 'emi' ? 'EMI' : 'Recurring',
              item.description,
              rupees(item.inflow),
              rupees(item.outflow),
            ]),
            ...forecast.months.map((m) => [
              m.month,
              'Month total',
              `Net ${fromPaise(m.net).toFixed(2)}`,
              fromPaise(m.inflow),
              fromPaise(m.outflow),
            ]),
          ],
        );
        return reply
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="cash-flow-${forecast.from}.csv"`)
          .send(csv as never);
      }
      return {
        success: true as const,
        data: {
          from: forecast.from,
          to: forecast.to,
          months: forecast.months.map((m) => ({
            month: m.month,
            inflow: fromPaise(m.inflow),
            outflow: fromPaise(m.outflow),
            net: fromPaise(m.net),
            cumulative_net: fromPaise(m.cumulativeNet),
          })),
          items: forecast.items.map((item) => ({
            date: item.date,
            kind: item.kind,
            description: item.description,
            inflow: fromPaise(item.inflow),
            outflow: fromPaise(item.outflow),
            source_id: item.sourceId,
          })),
          totals: {
            inflow: fromPaise(forecast.totals.inflow),
            outflow: fromPaise(forecast.totals.outflow),
            net: fromPaise(forecast.totals.net),
          },
        },
      };
    },
  );
}
