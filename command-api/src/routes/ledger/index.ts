import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AsOfQuery,
  errorResponses,
  LedgerQuery,
  LedgerResponse,
  PeriodsResponse,
  type WireLedgerEntry,
} from '@kosh/contract';
import {
  type FieldError,
  fromPaise,
  monthName,
  monthOf,
  monthRange,
  type Paise,
  ValidationError,
  type YearMonth,
} from '@kosh/domain';
import type { Queryable } from '@kosh/event-store';
import {
  groupLedgerByCategory,
  type LedgerGroup,
  type LedgerLine,
  ledgerEntries,
  ledgerPeriods,
} from '@kosh/projections';
import type { FastifyInstance } from 'fastify';
import { fileNamePart, sendCsv } from '../../csv';
import { cachedReadAt, createAnswerCache } from '../../reads/answer-cache';
import { readAt } from '../../reads/read-at';

export const LEDGER_QUERY_MESSAGES = {
  month: 'Month must be a whole number from 1 to 12',
  year: 'Year must be a four-digit year',
  groupBy: 'Group by must be category, or empty',
} as const;

/** `group_by`: 'category' groups each side by category (issue 31); empty, the spec's view. */
function groupsByCategory(value: string | undefined): boolean {
  const text = value?.trim() ?? '';
  if (text === '') return false;
  if (text === 'category') return true;
  throw new ValidationError([{ field: 'group_by', message: LEDGER_QUERY_MESSAGES.groupBy }]);
}

const groupToWire = (group: LedgerGroup) => ({ ...group, total: fromPaise(group.total) });

/** `?month=&year=`, each defaulting to the current one; empty values count as absent. */
export function parseLedgerQuery(
  query: { month?: string; year?: string },
  current: YearMonth,
): { ok: true; value: YearMonth } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const month = query.month?.trim() || null;
  const year = query.year?.trim() || null;
  if (month !== null && !(/^\d{1,2}$/.test(month) && Number(month) >= 1 && Number(month) <= 12)) {
    errors.push({ field: 'month', message: LEDGER_QUERY_MESSAGES.month });
  }
  if (year !== null && !(/^\d{4}$/.test(year) && Number(year) >= 1000)) {
    errors.push({ field: 'year', message: LEDGER_QUERY_MESSAGES.year });
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      year: year === null ? current.year : Number(year),
      month: month === null ? current.month : Number(month),
    },
  };
}

const toWire = (entry: LedgerLine): WireLedgerEntry => ({
  id: entry.id,
  date: entry.date,
  particulars: entry.particulars,
  amount: fromPaise(entry.amount),
  type: entry.kind,
});

const sum = (entries: readonly LedgerLine[]): Paise => entries.reduce((total, e) => total + e.amount, 0);

const KIND_WORDS: Record<LedgerLine['kind'], string> = {
  transaction: 'Transaction',
  emi: 'EMI',
  prepayment: 'Prepayment',
  foreclosure: 'Foreclosure',
};

const tags = ['Ledger'];
const security = [{ bearerAuth: [] }];

/** Spec section 7, Ledger. "Now" comes from the platform clock, so tests can fix the month. */
export async function ledgerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { platform } = app;
  app.addHook('onRequest', app.authenticate);
  // A month's answer is served again while the ledger read model has not moved (ETag, 304).
  const cache = createAnswerCache(platform);

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: "A month's credits and debits, EMIs of the user's loans included",
        querystring: LedgerQuery,
        response: { 200: LedgerResponse, ...errorResponses(401, 422) },
      },
    },
    // Live answers are served again while the ledger has not moved (ETag, 304); an as-of answer
    // is a replay of one month's rows: only the transactions ever dated in it.
    async (request, reply) => {
      const monthAt = (now: Date) => {
        const parsed = parseLedgerQuery(request.query, monthOf(now));
        if (!parsed.ok) throw new ValidationError(parsed.errors);
        return parsed.value;
      };
      const grouped = groupsByCategory(request.query.group_by);
      return cachedReadAt(platform, cache, request, reply, {
        // Grouped, the month's transactions name their categories: those are replayed too.
        models: grouped ? ['ledger', 'transactions', 'categories'] : ['ledger'],
        body: async ({ db, now }) => {
          const { year, month } = monthAt(now);
          return ledgerMonth(db, request.userId, year, month, grouped);
        },
        scopeAt: (asOf) => {
          const { year, month } = monthAt(asOf);
          return { transactionMonth: `${year}-${String(month).padStart(2, '0')}` };
        },
      });
    },
  );

  app.get(
    '.csv',
    {
      schema: {
        tags,
        security,
        summary:
          "A month's ledger (the query of GET /api/ledger) as CSV: UTF-8 with BOM, dates YYYY-MM-DD, amounts in rupees",
        querystring: LedgerQuery,
        produces: ['text/csv'],
        response: errorResponses(401, 422),
      },
    },
    async (request, reply) => {
      const monthAt = (now: Date) => {
        const parsed = parseLedgerQuery(request.query, monthOf(now));
        if (!parsed.ok) throw new ValidationError(parsed.errors);
        return parsed.value;
      };
      const { year, month, entries } = await readAt(
        platform,
        request,
        ['ledger'],
        async ({ db, now }) => {
          const { year, month } = monthAt(now);
          const range = monthRange(year, month);
          return {
            year,
            month,
            entries: await ledgerEntries(db, request.userId, range.startDate, range.endDate),
          };
        },
        (asOf) => {
          const { year, month } = monthAt(asOf);
          return { transactionMonth: `${year}-${String(month).padStart(2, '0')}` };
        },
      );
      return sendCsv(
        reply,
        fileNamePart(`ledger-${year}-${String(month).padStart(2, '0')}.csv`),
        ['Date', 'Particulars', 'Kind', 'Credit', 'Debit'],
        entries.map((e) => [
          e.date,
          e.particulars,
          KIND_WORDS[e.kind],
          e.side === 'C' ? fromPaise(e.amount) : null,
          e.side === 'D' ? fromPaise(e.amount) : null,
        ]),
      );
    },
  );

  async function ledgerMonth(db: Queryable, userId: string, year: number, month: number, grouped: boolean) {
    const dateRange = monthRange(year, month);
    const entries = await ledgerEntries(db, userId, dateRange.startDate, dateRange.endDate);
    const credits = entries.filter((e) => e.side === 'C');
    const debits = entries.filter((e) => e.side === 'D');
    const totalCredit = sum(credits);
    const totalDebit = sum(debits);
    const groupsOf = async (side: readonly LedgerLine[]) =>
      grouped ? { groups: (await groupLedgerByCategory(db, userId, side)).map(groupToWire) } : {};
    const [creditGroups, debitGroups] = [await groupsOf(credits), await groupsOf(debits)];
    return {
      success: true as const,
      data: {
        summary: {
          totalCredit: fromPaise(totalCredit),
          totalDebit: fromPaise(totalDebit),
          netBalance: fromPaise(totalCredit - totalDebit),
          emiCount: debits.filter((e) => e.kind === 'emi').length,
        },
        credit: { transactions: credits.map(toWire), total: fromPaise(totalCredit), ...creditGroups },
        debit: { transactions: debits.map(toWire), total: fromPaise(totalDebit), ...debitGroups },
        monthName: monthName(month),
        year,
        dateRange,
      },
    };
  }

  app.get(
    '/periods',
    {
      schema: {
        tags,
        security,
        summary: 'Months that have ledger entries, newest first, and the current month',
        querystring: AsOfQuery,
        response: { 200: PeriodsResponse, ...errorResponses(401, 422) },
      },
    },
    async (request, reply) =>
      cachedReadAt(platform, cache, request, reply, {
        models: ['ledger'],
        body: async ({ db, now }) => {
          const current = monthOf(now);
          const periods = await ledgerPeriods(db, request.userId, current);
          return {
            success: true as const,
            data: {
              periods: periods.map((p) => ({
                month: p.month,
                year: p.year,
                monthName: monthName(p.month),
                count: p.transactionCount + p.emiCount,
              })),
              currentMonth: current.month,
              currentYear: current.year,
            },
          };
        },
      }),
  );
}
