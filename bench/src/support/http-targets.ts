/**
 * The two baselines of `npm run bench:http`, each run as its own process so its CPU can be read:
 *
 *   hello     — Fastify answering a fixed ~2 KB JSON document (the HTTP floor of this machine)
 *   thin-raw  — Fastify and `pg`, each route one indexed query answered as it comes from the
 *               driver (Fastify's default serialiser, no compression), for the same rows as Kosh:
 *                 /                  the first page of the user's transactions (GET /api/transactions)
 *                 /ledger?from=&to=  the entries of a ledger month (GET /api/ledger)
 *                 /schedule/:id      the rows of a loan's current schedule (GET /api/loans/{id}/amortization)
 *                 /loans             the first page of 10 loans with bank and type names (GET /api/loans)
 *
 * Usage: node --import tsx bench/src/support/http-targets.ts hello|thin-raw
 * Environment: PORT, and for thin-raw DATABASE_URL and BENCH_USER_ID.
 */
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
  app.get<{ Querystring: { from: string; to: string } }>('/ledger', async (request) => {
    const { rows } = await pool.query(
      `SELECT entry_id AS id, entry_date AS date, side, kind, particulars, amount
         FROM ledger_entries
        WHERE user_id = $1 AND entry_date BETWEEN $2::date AND $3::date AND matched_to IS NULL
        ORDER BY entry_date, created_at, entry_id`,
      [userId, request.query.from, request.query.to],
    );
    return { success: true, data: rows };
  });
  app.get<{ Params: { id: string } }>('/schedule/:id', async (request) => {
    const { rows } = await pool.query(
      `SELECT seq, payment_number, kind, emi_date, principal, interest, gst, charge, emi,
              remaining_principal, annual_rate
         FROM loan_schedule_rows WHERE user_id = $1 AND loan_id = $2::uuid ORDER BY seq`,
      [userId, request.params.id],
    );
    return { success: true, data: rows };
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
  app.addHook('onClose', () => pool.end());
} else {
  console.error('usage: http-targets.ts hello|thin-raw');
  process.exit(2);
}

await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
