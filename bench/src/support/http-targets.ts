/**
 * The two baselines of `npm run bench:http`, each run as its own process so its CPU can be read:
 *
 *   hello     — Fastify answering a fixed ~2 KB JSON document (the HTTP floor of this machine)
 *   thin-raw  — Fastify and `pg` doing one indexed query for the same first page of the user's
 *               transactions as GET /api/transactions, answered as it comes from the driver
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
  app.addHook('onClose', () => pool.end());
} else {
  console.error('usage: http-targets.ts hello|thin-raw');
  process.exit(2);
}

await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
