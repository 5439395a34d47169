import { transactionDecider, transactionStreamId } from '@kosh/domain';
import { describe, expect, it } from 'vitest';
import { later, now, userId } from '../runner/testing/fixtures';
import { readModelSpec, recordedStream } from '../runner/testing/read-model-spec';
import { transactionsProjection } from './projector';

const ROWS = `SELECT id::text, notes, transaction_type, amount::text, version FROM transactions ORDER BY notes`;
const STATS = `SELECT user_id, total_transactions::int, credit_count::int, debit_count::int,
  credit_amount::text, debit_amount::text FROM transaction_stats`;
const MONTHS = `SELECT to_char(month, 'YYYY-MM-DD') AS month, transaction_type, amount::text, count::int
  FROM transaction_months ORDER BY month, transaction_type`;

const salaryId = '1e7d8f4e-0000-4000-8000-000000000001';
const rentId = '1e7d8f4e-0000-4000-8000-000000000002';
const record = (transactionId: string, notes: string, transactionType: 'C' | 'D', amount: number) =>
  ({
    type: 'RecordTransaction',
    data: { transactionId, userId, notes, transactionType, transactionDate: '2026-01-05', amount, now },
  }) as const;

const pizzaId = '1e7d8f4e-0000-4000-8000-000000000003';
const edit = (transactionId: string, notes: string, transactionType: 'C' | 'D', amount: number) =>
  ({
    type: 'UpdateTransaction',
    data: { ...record(transactionId, notes, transactionType, amount).data, now: later },
  }) as const;
/** An edit that moves the transaction to another date, its notes as `notes`. */
const move = (transactionId: string, notes: string, transactionDate: string) =>
  ({
    type: 'UpdateTransaction',
    data: { ...record(transactionId, notes, 'D', 45000).data, transactionDate, now: later },
  }) as const;
const remove = (transactionId: string) =>
  ({ type: 'DeleteTransaction', data: { transactionId, userId, now: later } }) as const;

describe('transactions read model in PostgreSQL', () => {
  const spec = readModelSpec(transactionsProjection);

  const streams = () => ({
    salary: recordedStream(transactionDecider, transactionStreamId(salaryId), userId),
    rent: recordedStream(transactionDecider, transactionStreamId(rentId), userId),
    pizza: recordedStream(transactionDecider, transactionStreamId(pizzaId), userId),
  });

  it('holds one row per transaction and the user totals, as the events leave them', async () => {
    const { salary, rent } = streams();
    await spec.apply([
      ...salary.decide(record(salaryId, 'Salary', 'C', 9000000)),
      ...rent.decide(record(rentId, 'Rent', 'D', 2500000)),
    ]);
    await spec.apply(rent.decide(edit(rentId, 'Rent', 'D', 2600000)));
    expect(await spec.rows(ROWS)).toEqual([
      { id: rentId, notes: 'Rent', transaction_type: 'D', amount: '26000.00', version: 2 },
      { id: salaryId, notes: 'Salary', transaction_type: 'C', amount: '90000.00', version: 1 },
    ]);
    expect(await spec.rows(STATS)).toEqual([
      {
        user_id: userId,
        total_transactions: 2,
        credit_count: 1,
        debit_count: 1,
        credit_amount: '90000.00',
        debit_amount: '26000.00',
      },
    ]);
    expect(await spec.rows(MONTHS)).toEqual([
      { month: '2026-01-01', transaction_type: 'C', amount: '90000.00', count: 1 },
      { month: '2026-01-01', transaction_type: 'D', amount: '26000.00', count: 1 },
    ]);
    await spec.apply(rent.decide(remove(rentId)));
    expect(await spec.rows(ROWS)).toMatchObject([{ id: salaryId }]);
    expect(await spec.rows(STATS)).toMatchObject([
      { total_transactions: 1, debit_count: 0, debit_amount: '0.00' },
    ]);
    // The debits' cell went with its last row, as a rebuild would never make it.
    expect(await spec.rows(MONTHS)).toEqual([
      { month: '2026-01-01', transaction_type: 'C', amount: '90000.00', count: 1 },
    ]);
  });

  it('lands an event delivered twice once, in the rows and in the totals', async () => {
    const { salary, rent } = streams();
    const events = [
      ...salary.decide(record(salaryId, 'Salary', 'C', 9000000)),
      ...rent.decide(record(rentId, 'Rent', 'D', 2500000)),
    ];
    const counts = await spec.landsOnce(events);
    // Rows, totals, the note grams ("salary" and "rent" hold 8 distinct letters and 8 pairs),
    // the two words and their two postings; no system category (nothing seeded); two month cells
    // (a credit and a debit of one month, no category); no category moved.
    expect(counts).toEqual([2, 1, 16, 2, 2, 0, 2, 0]);
  });

  it('keeps, per user, how many notes hold each one- or two-character piece, as ILIKE finds them', async () => {
    const { salary, rent, pizza } = streams();
    await spec.apply([
      ...salary.decide(record(salaryId, 'Salary', 'C', 9000000)),
      ...rent.decide(record(rentId, 'Rent', 'D', 2500000)),
      ...pizza.decide(record(pizzaId, 'PIZZA at Straße ΣΑΣ #42', 'D', 45000)),
    ]);
    await spec.apply(rent.decide(edit(rentId, 'Rent for March (50%)', 'D', 2500000)));
    await spec.apply(salary.decide(remove(salaryId)));
    const pieces = new Set<string>();
    for (const notes of ['Salary', 'Rent', 'Rent for March (50%)', 'PIZZA at Straße ΣΑΣ #42', 'qx']) {
      const chars = [...notes];
      chars.forEach((c, i) => {
        pieces.add(c);
        if (i + 1 < chars.length) pieces.add(c + chars[i + 1]);
      });
    }
    // ILIKE's own answer per piece (`%` and `_` escaped: they are pieces of the notes here).
    const counted = await spec.rows<{ piece: string; kept: number; found: number }>(
      `SELECT p.piece, coalesce(g.n, 0)::int AS kept,
              (SELECT count(*)::int FROM transactions t
                WHERE t.user_id = $1
                  AND t.notes ILIKE '%' || replace(replace(p.piece, '%', '\\%'), '_', '\\_') || '%') AS found
         FROM unnest($2::text[]) AS p(piece)
         LEFT JOIN transaction_note_grams g ON g.user_id = $1 AND g.gram = lower(p.piece)`,
      [userId, [...pieces]],
    );
    // No piece kept at 0 (Salary's "y" is gone with it): what a rebuild of the same events holds.
    expect(await spec.rows('SELECT gram, n FROM transaction_note_grams WHERE n <= 0')).toEqual([]);
    expect(counted.length).toBe(pieces.size);
    for (const row of counted) expect(row.kept, String(row.piece)).toBe(row.found);
    const some = Object.fromEntries(counted.map((r) => [r.piece, r.kept]));
    expect(some).toMatchObject({ r: 2, R: 2, '%': 1, a: 2, S: 1, Σ: 1, ß: 1, q: 0, qx: 0 });
  });

  it('keeps, per user, the words of the notes and which transactions hold each, as they change', async () => {
    const { salary, rent, pizza } = streams();
    await spec.apply([
      ...salary.decide(record(salaryId, 'Salary  for March', 'C', 9000000)),
      ...rent.decide(record(rentId, 'Rent', 'D', 2500000)),
      ...pizza.decide(record(pizzaId, 'PIZZA at\tStraße #42 pizza', 'D', 45000)),
    ]);
    await spec.apply(rent.decide(edit(rentId, 'Rent for March (50%)', 'D', 2500000)));
    await spec.apply(salary.decide(remove(salaryId)));
    // Lower-cased, cut at any white space (two spaces, a tab), each word once per note; Salary's
    // "salary" gone with it, its "for" and "march" left to the rent's notes.
    expect(await spec.rows('SELECT word, n FROM transaction_note_words ORDER BY word')).toEqual(
      [
        ['#42', 1],
        ['(50%)', 1],
        ['at', 1],
        ['for', 1],
        ['march', 1],
        ['pizza', 1],
        ['rent', 1],
        ['straße', 1],
      ].map(([word, n]) => ({ word, n })),
    );
    expect(
      await spec.rows(
        'SELECT word, transaction_id::text AS id FROM transaction_note_word_rows ORDER BY word, transaction_id',
      ),
    ).toEqual(
      [
        ['#42', pizzaId],
        ['(50%)', rentId],
        ['at', pizzaId],
        ['for', rentId],
        ['march', rentId],
        ['pizza', pizzaId],
        ['rent', rentId],
        ['straße', pizzaId],
      ].map(([word, id]) => ({ word, id })),
    );
    await spec.apply(pizza.decide(edit(pizzaId, 'Rent deposit', 'D', 45000)));
    expect(await spec.rows('SELECT word, n FROM transaction_note_words ORDER BY word')).toEqual(
      [
        ['(50%)', 1],
        ['deposit', 1],
        ['for', 1],
        ['march', 1],
        ['rent', 2],
      ].map(([word, n]) => ({ word, n })),
    );
    expect(await spec.rows('SELECT count(*)::int AS n FROM transaction_note_word_rows')).toEqual([{ n: 6 }]);
  });

  it("moves a row's postings with its date, as a rebuild of the same events holds them", async () => {
    const { rent, pizza } = streams();
    const events = [
      ...rent.decide(record(rentId, 'Rent for March', 'D', 2500000)),
      ...pizza.decide(record(pizzaId, 'Pizza night', 'D', 45000)),
    ];
    await spec.apply(events);
    // The date alone (the notes as they were), then notes and date together.
    const moved = [
      ...pizza.decide(move(pizzaId, 'Pizza night', '2025-12-24')),
      ...rent.decide(move(rentId, 'Rent for April', '2026-04-01')),
    ];
    await spec.apply(moved.slice(0, 1));
    await spec.apply(moved.slice(1));
    const NOTE_TABLES = [
      `SELECT word, transaction_id::text AS id, transaction_date::text AS date, created_at::text AS created_at
         FROM transaction_note_word_rows ORDER BY word, transaction_id`,
      'SELECT word, n FROM transaction_note_words ORDER BY word',
      'SELECT gram, n FROM transaction_note_grams ORDER BY gram COLLATE "C"',
    ];
    const live = await Promise.all(NOTE_TABLES.map((sql) => spec.rows(sql)));
    expect(live[0]).toEqual(
      [
        ['april', rentId, '2026-04-01'],
        ['for', rentId, '2026-04-01'],
        ['night', pizzaId, '2025-12-24'],
        ['pizza', pizzaId, '2025-12-24'],
        ['rent', rentId, '2026-04-01'],
      ].map(([word, id, date]) => ({ word, id, date, created_at: '2026-01-10 10:00:00+00' })),
    );
    // A rebuild folds each transaction's events into one change from nothing.
    await spec.rows(
      'TRUNCATE transactions, transaction_stats, transaction_note_grams, transaction_note_words, transaction_note_word_rows, transaction_months',
    );
    await spec.apply([...events, ...moved]);
    expect(await Promise.all(NOTE_TABLES.map((sql) => spec.rows(sql)))).toEqual(live);
  });

  it("a rebuild's bulk path (batches without the note indexes, then derived once) holds what the live batches hold", async () => {
    const { salary, rent, pizza } = streams();
    const bulk = transactionsProjection.bulk;
    if (!bulk) throw new Error('transactions has a bulk path');
    // Several batches: records, an edit of the notes, a move, a removal, and notes JS cannot
    // cut like PostgreSQL (cut in SQL instead).
    const batches = [
      [
        ...salary.decide(record(salaryId, 'Salary ÉTÉ bonus', 'C', 9000000)),
        ...rent.decide(record(rentId, 'Rent for March', 'D', 2500000)),
      ],
      [
        ...pizza.decide(record(pizzaId, 'Pizza night', 'D', 45000)),
        ...rent.decide(edit(rentId, 'Rent for March and April', 'D', 2600000)),
      ],
      [
        ...pizza.decide(move(pizzaId, 'Pizza night out café', '2025-12-24')),
        ...salary.decide(remove(salaryId)),
      ],
    ];
    for (const batch of batches) await spec.apply(batch);
    const TABLES = [
      `SELECT word, transaction_id::text AS id, transaction_date::text AS date, created_at::text AS created_at
         FROM transaction_note_word_rows ORDER BY word, transaction_id`,
      'SELECT user_id, word, n FROM transaction_note_words ORDER BY word',
      'SELECT user_id, gram, n FROM transaction_note_grams ORDER BY gram COLLATE "C"',
      ROWS,
      STATS,
      MONTHS,
    ];
    const live = await Promise.all(TABLES.map((sql) => spec.rows(sql)));
    expect(live[2]).toContainEqual({ user_id: userId, gram: 'ou', n: 1 });
    expect(live[2]).toContainEqual({ user_id: userId, gram: 'é', n: 1 });
    await spec.rows(
      'TRUNCATE transactions, transaction_stats, transaction_note_grams, transaction_note_words, transaction_note_word_rows, transaction_months',
    );
    // Each batch in its own transaction, as a rebuild's; they leave the note indexes alone.
    for (const batch of batches) await spec.inTransaction((tx) => bulk.apply(tx, batch));
    expect(await spec.rows('SELECT count(*)::int AS n FROM transaction_note_grams')).toEqual([{ n: 0 }]);
    await spec.inTransaction((tx) => bulk.finish(tx));
    expect(await Promise.all(TABLES.map((sql) => spec.rows(sql)))).toEqual(live);
    // Again (events arrived before the swap): the same, not counted twice.
    await spec.inTransaction((tx) => bulk.finish(tx));
    expect(await Promise.all(TABLES.map((sql) => spec.rows(sql)))).toEqual(live);
  });
});
