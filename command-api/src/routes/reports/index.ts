import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  errorResponses,
  IncomeExpenseResponse,
  MonthsQuery,
  NetWorthResponse,
  SpendingQuery,
  SpendingResponse,
} from '@kosh/contract';
import {
  calendarDateOf,
  fromPaise,
  parseReportMonths,
  parseSpendingPeriod,
  ValidationError,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import {
  type AsOfReadModel,
  categoriesAndSpending,
  categoriesAndSpendingStatement,
  incomeExpenseByMonth,
  netWorthOn,
  rollUpSpending,
  type SpendingNode,
} from '@kosh/projections';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type CsvCell, toCsv } from '../../csv';
import type { Platform } from '../../platform';
import { ACCOUNT_HEADER } from '../../plugins/audit-access';
import { cachedReadAt, createAnswerCache } from '../../reads/answer-cache';
import { readAheadWithTags, type UserTags } from '../../reads/checkpoint-tags';
import { type ReadSource, readAt, readsLive } from '../../reads/read-at';
import { monthsEndingAt } from './months';

const tags = ['Reports'];
const security = [{ bearerAuth: [] }];

export const ok = <T>(
  parsed: { ok: true; value: T } | { ok: false; errors: { field: string; message: string }[] },
): T => {
  if (!parsed.ok) throw new ValidationError(parsed.errors);
  return parsed.value;
};

/** Rupees for a CSV cell (the writer prints two decimals). */
export const rupees = (paise: number) => paise / 100;

/** A report's CSV download (UTF-8 with BOM, CRLF, formula-safe: ../../csv.ts, as every export). */
export function sendCsv(
  reply: FastifyReply,
  file: string,
  header: readonly string[],
  rows: readonly (readonly CsvCell[])[],
) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${file}"`)
    .send(toCsv(header, rows));
}

type MonthsArgs = { months?: string };

async function incomeExpense(db: Queryable, userId: string, now: Date, query: MonthsArgs) {
  const months = monthsEndingAt(now, ok(parseReportMonths(query.months, 24)));
  const first = months[0] as (typeof months)[number];
  const last = months.at(-1) as (typeof months)[number];
  const found = await incomeExpenseByMonth(db, userId, first.startDate, last.endDate);
  const rows = months.map((m) => {
    const f = found.find((r) => r.year === m.year && r.month === m.month);
    const income = f?.income ?? 0;
    const expense = f?.expense ?? 0;
    const loanPayments = f?.loanPayments ?? 0;
    return { ...m, income, expense, loanPayments, net: income - expense - loanPayments };
  });
  const total = (key: 'income' | 'expense' | 'loanPayments' | 'net') =>
    rows.reduce((sum, r) => sum + r[key], 0);
  return {
    rows,
    totals: {
      income: total('income'),
      expense: total('expense'),
      loanPayments: total('loanPayments'),
      net: total('net'),
    },
    asOf: calendarDateOf(now),
  };
}

async function netWorth(db: Queryable, userId: string, now: Date, query: MonthsArgs) {
  const months = monthsEndingAt(now, ok(parseReportMonths(query.months, 24)));
  const points = await netWorthOn(
    db,
    userId,
    months.map((m) => m.onDate),
  );
  return { points, asOf: calendarDateOf(now) };
}

const NET_WORTH_MODELS: readonly AsOfReadModel[] = ['accounts', 'loans', 'schedules'];

type SpendingArgs = { from?: string; to?: string; fy?: string; month?: string; year?: string };

/**
 * The spending report: the period's debits by category, rolled up the tree. `readAhead`: the
 * reads already made for this user, period and day (`spendingReadAhead`), if any.
 */
export async function spending(
  db: Queryable,
  userId: string,
  now: Date,
  query: SpendingArgs,
  readAhead?: Promise<Awaited<ReturnType<typeof categoriesAndSpending>>>,
) {
  const today = calendarDateOf(now);
  const period = ok(parseSpendingPeriod(query, today));
  const spent = await (readAhead ?? categoriesAndSpending(db, userId, period.from, period.to));
  const { total, rows } = rollUpSpending(spent.tree, spent.categories, spent.loanPayments);
  return { period, total, rows, asOf: today };
}

type ReadAhead = {
  userId: string;
  query: string;
  today: string;
  tags: Promise<UserTags>;
  spent: Promise<Awaited<ReturnType<typeof categoriesAndSpending>>>;
};

/**
 * The spending report's read-ahead (the route's `readAhead`, plugins/auth.ts): its one statement
 * and the request's checkpoint tags in one round trip, started by the token check. Used by the
 * body only for the same user, query text and day, and while the request's tags are those it
 * read with (a read-your-writes wait forgets them: the body then reads again). A live read
 * only; an `as_of`, an invalid query or an auditor's read (another account: the user differs)
 * reads as ever.
 */
function spendingReadAhead(platform: Platform) {
  const ahead = new WeakMap<FastifyRequest, ReadAhead>();
  return {
    start(request: FastifyRequest, userId: string) {
      if (!readsLive(request) || request.headers[ACCOUNT_HEADER] !== undefined) return;
      const today = calendarDateOf(platform.clock());
      const period = parseSpendingPeriod(request.query as SpendingArgs, today);
      if (!period.ok) return;
      const statement = categoriesAndSpendingStatement(userId, period.value.from, period.value.to);
      const read = readAheadWithTags(platform.db, request, userId, statement.text, statement.values);
      if (!read) return;
      const spent = read.rows.then(statement.parse);
      spent.catch(() => {});
      ahead.set(request, { userId, query: JSON.stringify(request.query), today, tags: read.tags, spent });
    },
    take(request: FastifyRequest & { userId: string }, now: Date): ReadAhead['spent'] | undefined {
      const read = ahead.get(request);
      ahead.delete(request);
      if (
        !read ||
        read.userId !== request.userId ||
        read.today !== calendarDateOf(now) ||
        read.query !== JSON.stringify(request.query) ||
        request.checkpointTagsRead?.get(request.userId) !== read.tags
      ) {
        return undefined;
      }
      return read.spent;
    },
  };
}

/** Percent of `total` with one decimal, in integers (no float sums). */
export const shareOf = (amount: number, total: number) =>
  total === 0 ? 0 : Math.round((amount * 1000) / total) / 10;

/** The transactions (and their EMI matches), the ledger's loan payments and the category tree. */
const SPENDING_MODELS: readonly AsOfReadModel[] = ['transactions', 'ledger', 'schedules', 'categories'];

/**
 * Issue 31, reports: each a JSON read with `as_of`, and a `.csv` twin at the same path taking the
 * same query (as an account's `register.csv`). They read the ledger, accounts, loans and
 * schedules read models (projections/src/reports); an as-of answer replays those.
 */
export async function reportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  const cache = createAnswerCache(platform);
  const spendingAhead = spendingReadAhead(platform);
  app.addHook('onRequest', app.authenticate);

  /** The CSV twin reads as the JSON read does: live, or replayed with `as_of`. */
  const csvAt = <T>(
    request: FastifyRequest,
    models: readonly AsOfReadModel[],
    body: (s: ReadSource) => Promise<T>,
  ) => readAt(platform, request as FastifyRequest & { userId: string }, models, body);

  app.get(
    '/income-expense',
    {
      schema: {
        tags,
        security,
        summary: 'Income against expense by month (default the last 24), as the ledger totals each month',
        querystring: MonthsQuery,
        response: { 200: IncomeExpenseResponse, ...errorResponses(401, 422) },
      },
    },
    async (request, reply) =>
      cachedReadAt(platform, cache, request, reply, {
        models: ['ledger'],
        body: async ({ db, now }) => {
          const report = await incomeExpense(db, request.userId, now, request.query);
          const wire = (r: { income: number; expense: number; loanPayments: number; net: number }) => ({
            income: fromPaise(r.income),
            expense: fromPaise(r.expense),
            loan_payments: fromPaise(r.loanPayments),
            net: fromPaise(r.net),
          });
          return {
            success: true as const,
            data: {
              months: report.rows.map((r) => ({
                year: r.year,
                month: r.month,
                month_name: r.name,
                ...wire(r),
              })),
              totals: wire(report.totals),
              as_of: report.asOf,
            },
          };
        },
      }),
  );

  app.get(
    '/income-expense.csv',
    {
      schema: {
        tags,
        security,
        summary: 'The income-against-expense report as CSV (UTF-8 with BOM, amounts in rupees)',
        querystring: MonthsQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const report = await csvAt(request, ['ledger'], ({ db, now }) =>
        incomeExpense(db, request.userId, now, request.query),
      );
      const cells = (r: { income: number; expense: number; loanPayments: number; net: number }) => [
        rupees(r.income),
        rupees(r.expense),
        rupees(r.loanPayments),
        rupees(r.net),
      ];
      return sendCsv(
        reply,
        `income-expense-${report.asOf}.csv`,
        ['Month', 'Income', 'Expense', 'Loan payments', 'Net'],
        [...report.rows.map((r) => [`${r.name} ${r.year}`, ...cells(r)]), ['Total', ...cells(report.totals)]],
      );
    },
  );

  app.get(
    '/net-worth',
    {
      schema: {
        tags,
        security,
        summary:
          "Net worth at each month's end (default the last 24): the accounts' balances less the loans' outstanding principal",
        querystring: MonthsQuery,
        response: { 200: NetWorthResponse, ...errorResponses(401, 422) },
      },
    },
    async (request, reply) =>
      cachedReadAt(platform, cache, request, reply, {
        models: NET_WORTH_MODELS,
        body: async ({ db, now }) => {
          const report = await netWorth(db, request.userId, now, request.query);
          return {
            success: true as const,
            data: {
              points: report.points.map((p) => ({
                date: p.date,
                accounts: fromPaise(p.accounts),
                loans: fromPaise(p.loans),
                net_worth: fromPaise(p.accounts - p.loans),
              })),
              as_of: report.asOf,
            },
          };
        },
      }),
  );

  app.get(
    '/net-worth.csv',
    {
      schema: {
        tags,
        security,
        summary: 'The net-worth report as CSV (UTF-8 with BOM, dates DD/MM/YYYY, amounts in rupees)',
        querystring: MonthsQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const report = await csvAt(request, NET_WORTH_MODELS, ({ db, now }) =>
        netWorth(db, request.userId, now, request.query),
      );
      return sendCsv(
        reply,
        `net-worth-${report.asOf}.csv`,
        ['Date', 'Accounts', 'Loans outstanding', 'Net worth'],
        report.points.map((p) => [p.date, rupees(p.accounts), rupees(p.loans), rupees(p.accounts - p.loans)]),
      );
    },
  );

  const spendingWire = (node: SpendingNode, total: number) => ({
    id: node.id,
    name: node.name,
    amount: fromPaise(node.amount),
    own_amount: fromPaise(node.ownAmount),
    count: node.count,
    share: shareOf(node.amount, total),
  });

  app.get(
    '/spending',
    {
      schema: {
        tags,
        security,
        summary:
          'Spending by category over a month (default this one), a financial year (fy) or any range (from, to), rolled up the category tree',
        querystring: SpendingQuery,
        response: { 200: SpendingResponse, ...errorResponses(401, 422) },
      },
      config: { readAhead: spendingAhead.start },
    },
    async (request, reply) =>
      cachedReadAt(platform, cache, request, reply, {
        models: SPENDING_MODELS,
        body: async ({ db, now, asOf }) => {
          const ahead = asOf === null ? spendingAhead.take(request, now) : undefined;
          const report = await spending(db, request.userId, now, request.query, ahead);
          return {
            success: true as const,
            data: {
              period: report.period,
              total: fromPaise(report.total),
              categories: report.rows.map((row) => ({
                ...spendingWire(row, report.total),
                children: row.children.map((child) => spendingWire(child, report.total)),
              })),
              as_of: report.asOf,
            },
          };
        },
      }),
  );

  app.get(
    '/spending.csv',
    {
      schema: {
        tags,
        security,
        summary: 'The spending report as CSV: a line per category and subcategory (UTF-8 with BOM, rupees)',
        querystring: SpendingQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const report = await csvAt(request, SPENDING_MODELS, ({ db, now }) =>
        spending(db, request.userId, now, request.query),
      );
      const line = (node: SpendingNode, parent: string | null): CsvCell[] => [
        node.name,
        parent,
        rupees(node.amount),
        `${shareOf(node.amount, report.total).toFixed(1)}%`,
        String(node.count),
      ];
      return sendCsv(
        reply,
        `spending-${report.period.from}-to-${report.period.to}.csv`,
        ['Category', 'Parent', 'Amount', 'Share', 'Entries'],
        [
          ...report.rows.flatMap((row) => [line(row, null), ...row.children.map((c) => line(c, row.name))]),
          [
            'Total',
            null,
            rupees(report.total),
            '100.0%',
            String(report.rows.reduce((n, r) => n + r.count, 0)),
          ],
        ],
      );
    },
  );
}
