/**
 * The baseline of `npm run bench:commands -- writes` (issue 33 item 3): a bare Fastify route doing
 * one INSERT of a transaction-like row with `pg` (a pool of 10), answering the row with 201.
 * No auth, no validation beyond Fastify's JSON parse: the floor of a write over HTTP here.
 *
 * Usage: node --import tsx bench/src/support/insert-target.ts   (PORT, DATABASE_URL)
 * The table `bench_inserts` is the bench's to create.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

type Body = { notes: string; transaction_type: string; transaction_date: string; amount: number };

const app = Fastify({ logger: false });
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

app.post<{ Body: Body }>('/', async (request, reply) => {
  const { notes, transaction_type, transaction_date, amount } = request.body;
  const { rows } = await pool.query(
    `INSERT INTO bench_inserts (id, user_id, transaction_type, transaction_date, amount, notes)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [randomUUID(), 'bench', transaction_type, transaction_date, Math.round(amount * 100), notes],
  );
  return reply.status(201).send({ success: true, data: rows[0] });
});
app.addHook('onClose', () => pool.end());

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
