/**
 * The two baselines of `npm run bench:http`, each run as its own process so its CPU can be read:
 *
 *   hello     — Fastify answering a fixed ~2 KB JSON document (the HTTP floor of this machine)
 *   thin-raw  — Fastify and `pg`, each route one indexed query answered as it comes from the
 *               driver (Fastify's default serialiser, no compression), for the same rows as Kosh:
 *                 /                  the first page of the user's transactions (GET /api/transactions)
 *                 /ledger?from=&to=  the entries of a ledger month, in GET /api/ledger's shape
 *                 /schedule/:id      the rows of a loan's current schedule with its header, in the
 *                                    shape of GET /api/loans/{id}/amortization (18 fields a row)
 *                 /loans             the first page of 10 loans with bank and type names (GET /api/loans)
 *                 /periods           the months that have ledger entries (GET /api/ledger/periods)
 *
 * Usage: node --import tsx bench/src/support/http-targets.ts hello|thin-raw
 * Environment: PORT, and for thin-raw DATABASE_URL and BENCH_USER_ID.
 */
import { MONTH_NAMES } from '@kosh/domain';
import Fastify from 'fastify';
import pg from 'pg';

const target = process.argv[2];
const port = Number(process.env.PORT ?? 0);
const app = Fastify({ logger: false });

if (target === 'hello') {
  const items = Array.from({ length: 20 }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    notes: `Hello world entry ${i}`,
    amount: 1234.5 + i,
    date: '2025-01-01',
  }));
  const answer = { success: true, data: items };
  app.get('/', async () => answer);
} else if (target === 'thin-raw') {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const userId = process.env.BENCH_USER_ID;
  app.get('/', async () => {
    const { rows } = await pool.query(
      `SELECT id, notes, transaction_type, transaction_date, amount, created_at, updated_at
         FROM transactions WHERE user_id = $1
        ORDER BY transaction_date DESC, created_at DESC, id DESC LIMIT 10`,
      [userId],
    );
    return { success: true, data: rows };
  });
  // The ledger month and the schedule answer the shape Kosh answers (same field names, numbers
  // as numbers, the same envelope), mapped plainly from the driver's rows.
  app.get<{ Querystring: { from: string; to: string } }>('/ledger', async (request) => {
    const { rows } = await pool.query(
      `SELECT entry_id AS id, to_char(entry_date, 'YYYY-MM-DD') AS date, side, kind, particulars, amount
         FROM ledger_entries
        WHERE user_id = $1 AND entry_date BETWEEN $2::date AND $3::date AND matched_to IS NULL
        ORDER BY entry_date, created_at, entry_id`,
      [userId, request.query.from, request.query.to],
    );
    const side = (code: string) => {
      const transactions = rows
        .filter((r) => r.side === code)
        .map((r) => ({
          id: r.id,
          date: r.date,
          particulars: r.particulars,
          amount: Number(r.amount),
          type: r.kind,
        }));
      const paise = transactions.reduce((sum, t) => sum + Math.round(t.amount * 100), 0);
      return { transactions, total: paise / 100, paise };
    };
    const credit = side('C');
    const debit = side('D');
    return {
      success: true,
      data: {
        summary: {
          totalCredit: credit.total,
          totalDebit: debit.total,
          netBalance: (credit.paise - debit.paise) / 100,
          emiCount: debit.transactions.filter((t) => t.type === 'emi').length,
        },
        credit: { transactions: credit.transactions, total: credit.total },
        debit: { transactions: debit.transactions, total: debit.total },
        monthName: 'August',
        year: Number(request.query.from.slice(0, 4)),
        dateRange: { startDate: request.query.from, endDate: request.query.to },
      },
    };
  });
  app.get<{ Params: { id: string } }>('/schedule/:id', async (request) => {
    const { rows } = await pool.query(
      `SELECT r.payment_number, r.kind, to_char(r.emi_date, 'YYYY-MM-DD') AS emi_date, r.principal,
              r.interest, r.gst, r.charge, r.emi, r.remaining_principal, r.annual_rate,
              h.version, h.principal AS total_principal, h.interest AS total_interest, h.gst AS total_gst,
              h.emi AS total_emi, h.number_of_payments, h.charges AS total_charges, h.reason,
              to_char(h.closed_on, 'YYYY-MM-DD') AS closed_on, h.generated_at
         FROM loan_schedule_rows r JOIN loan_schedules h ON h.loan_id = r.loan_id
        WHERE r.user_id = $1 AND r.loan_id = $2::uuid ORDER BY r.seq`,
      [userId, request.params.id],
    );
    const h = rows[0];
    return {
      success: true,
      data: {
        schedule: rows.map((r) => ({
          id: `${request.params.id}:${r.version}:${r.payment_number}`,
          kind: r.kind,
          charge: Number(r.charge),
          annual_rate: r.annual_rate === null ? null : Number(r.annual_rate),
          paid_on: null,
          paid_amount: null,
          transaction_id: null,
          payment_state: null,
          remainder: 0,
          overdue: false,
          mark_ids: [],
          payment_number: r.payment_number,
          emi_date: r.emi_date,
          principal: Number(r.principal),
          interest: Number(r.interest),
          gst: Number(r.gst),
          emi: Number(r.emi),
          remaining_principal: Number(r.remaining_principal),
        })),
        summary: h && {
          version: h.version,
          total_principal: Number(h.total_principal),
          total_interest: Number(h.total_interest),
          total_gst: Number(h.total_gst),
          total_emi: Number(h.total_emi),
          number_of_payments: h.number_of_payments,
          total_charges: Number(h.total_charges),
          closed_on: h.closed_on,
          reason: h.reason,
          generated_at: h.generated_at,
          emis_auto_debited: true,
          construction_completed_on: null,
          marks: [],
        },
      },
    };
  });
  app.get('/loans', async () => {
    const { rows } = await pool.query(
      `SELECT l.*, b.bank_name, b.branch_name, t.type_name
         FROM loans l
         LEFT JOIN catalog_banks b ON b.id = l.bank_id
         LEFT JOIN catalog_loan_types t ON t.id = l.loan_type_id
        WHERE l.user_id = $1 ORDER BY l.created_at DESC, l.id DESC LIMIT 10`,
      [userId],
    );
    return { success: true, data: rows };
  });
  // The months that have entries, in GET /api/ledger/periods' shape, with the current month.
  app.get('/periods', async () => {
    const now = new Date(Date.now() + 330 * 60_000);
    const current = { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
    const { rows } = await pool.query(
      `SELECT year, month, transaction_count, emi_count FROM ledger_periods
        WHERE user_id = $1 AND (transaction_count > 0 OR (emi_count > 0 AND year * 12 + month <= $2))
        ORDER BY year DESC, month DESC`,
      [userId, current.year * 12 + current.month],
    );
    return {
      success: true,
      data: {
        periods: rows.map((r) => ({
          month: r.month,
          year: r.year,
          monthName: MONTH_NAMES[r.month - 1],
          count: r.transaction_count + r.emi_count,
        })),
        currentMonth: current.month,
        currentYear: current.year,
      },
    };
  });
  app.addHook('onClose', () => pool.end());
} else {
  console.error('usage: http-targets.ts hello|thin-raw');
  process.exit(2);
}

await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
