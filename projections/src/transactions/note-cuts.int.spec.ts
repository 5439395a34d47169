import { randomUUID } from 'node:crypto';
import type { Db } from '@kosh/event-store';
import { createPgliteDb, eventStoreMigrations, migrate } from '@kosh/event-store';
import { createTestDatabase } from '@kosh/event-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSources } from '../registry';
import { cutNotes, cutsLikePostgres } from './note-cuts';
import { addToNoteIndexes } from './projector';

/**
 * The note pieces and words a batch adds are cut in JS where JS and PostgreSQL agree
 * (note-cuts.ts) and in SQL otherwise: the tables must hold exactly what the migrations' own SQL
 * cut (003_note_grams.sql, 004_note_words.sql) gives for the same notes, on both stores.
 */
const NOTES = [
  'UPI · Swiggy · 527411112222',
  'UPI · SWIGGY · 527411112222',
  'NEFT CR-HDFC0000001-ACME PAYROLL LTD-SAL 4\nNEFT cr acme',
  'aaaa  bb\tcc\r\ndd',
  '₹ 500 किराया',
  'CAFÉ Éclair',
  'İstanbul Iı',
  'Pizza 🍕 night',
  'ß straße STRASSE',
  ' lone ',
];

/** The sort key a note's postings carry (migration 015): its row's date and instant recorded. */
const dateOf = (i: number) => `2024-01-${String(10 + i).padStart(2, '0')}`;
const createdAtOf = (i: number) => `2024-01-01T00:00:${String(i).padStart(2, '0')}.000Z`;
/** Where the notes of `MOVED` are dated after their row's date moved (their notes unchanged). */
const MOVED = [3, 5];
const movedDate = '2023-06-30';

/** A longer word of the same note holding `w.word` (013_note_words_maximal.sql): `w.word` is not posted. */
const LONGER = `SELECT 1 FROM regexp_split_to_table(lower(t.notes), '[[:space:]]+') AS o(word)
  WHERE char_length(o.word) > char_length(w.word) AND strpos(o.word, w.word) > 0`;

describe.each(['postgres', 'embedded'] as const)('note pieces and words cut in JS and SQL (%s)', (mode) => {
  let db: Db;
  let close: () => Promise<void>;
  const userId = randomUUID();

  beforeAll(async () => {
    if (mode === 'postgres') {
      const database = await createTestDatabase();
      db = database.db;
      close = () => database.drop();
    } else {
      db = await createPgliteDb(undefined);
      close = () => db.close();
    }
    await migrate(db, [eventStoreMigrations, ...migrationSources]);
  });
  afterAll(() => close?.());

  it('sends to SQL only the notes whose lower-casing may differ', () => {
    expect(NOTES.map(cutsLikePostgres)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      true,
    ]);
    const cuts = cutNotes(
      NOTES.map((notes, i) => ({
        userId,
        id: randomUUID(),
        date: dateOf(i),
        createdAt: createdAtOf(i),
        notes,
        sign: 1 as const,
      })),
    );
    expect(cuts.inSql.map((n) => n.notes)).toEqual([
      'CAFÉ Éclair',
      'İstanbul Iı',
      'Pizza 🍕 night',
      'ß straße STRASSE',
    ]);
  });

  it('holds what the SQL cut of the notes left gives, after notes arrive, leave and move', async () => {
    const ids = NOTES.map(() => randomUUID());
    await db.query(
      `CREATE TEMP TABLE kept (id uuid, user_id text, notes text, transaction_date date, created_at timestamptz)`,
    );
    const note = (i: number, notes: string, sign: 1 | -1, date = dateOf(i)) => ({
      userId,
      id: ids[i]!,
      date,
      createdAt: createdAtOf(i),
      notes,
      sign,
    });
    // Every note arrives, then the first three leave and come back changed, and two (one cut in
    // JS, one in SQL) move to another date with the same notes (one batch each).
    const arriving = NOTES.map((notes, i) => note(i, notes, 1));
    // A batch JS cuts whole, then one PostgreSQL cuts in part.
    await addToNoteIndexes(
      db,
      arriving.filter((note) => cutsLikePostgres(note.notes)),
    );
    await addToNoteIndexes(
      db,
      arriving.filter((note) => !cutsLikePostgres(note.notes)),
    );
    await addToNoteIndexes(db, [
      ...NOTES.slice(0, 3).map((notes, i) => note(i, notes, -1)),
      ...NOTES.slice(0, 3).map((notes, i) => note(i, `${notes} É again`, 1)),
      ...MOVED.flatMap((i) => [note(i, NOTES[i]!, -1), note(i, NOTES[i]!, 1, movedDate)]),
    ]);
    const kept = NOTES.map((notes, i) => (i < 3 ? `${notes} É again` : notes));
    const dates = NOTES.map((_, i) => (MOVED.includes(i) ? movedDate : dateOf(i)));
    await db.query(
      `INSERT INTO kept SELECT unnest($1::uuid[]), $2, unnest($3::text[]), unnest($4::date[]),
              unnest($5::timestamptz[])`,
      [ids, userId, kept, dates, NOTES.map((_, i) => createdAtOf(i))],
    );
    const grams = await db.query(
      `SELECT gram, n::int FROM transaction_note_grams WHERE user_id = $1 ORDER BY gram COLLATE "C"`,
      [userId],
    );
    const expectedGrams = await db.query(
      `SELECT g.gram, count(*)::int AS n FROM kept t
        CROSS JOIN LATERAL (
          SELECT DISTINCT substr(lower(t.notes), i, k) AS gram
            FROM generate_series(1, char_length(lower(t.notes))) AS i, (VALUES (1), (2)) AS len(k)
           WHERE i + k - 1 <= char_length(lower(t.notes))) g
        GROUP BY g.gram ORDER BY g.gram COLLATE "C"`,
    );
    expect(grams.rows).toEqual(expectedGrams.rows);
    expect(grams.rows.length).toBeGreaterThan(100);
    // Words inside a longer word of the same note are not posted: the UPI row's notes are all
    // inside its narration's one word but '·'; the NEFT note's 'cr' and 'acme' inside 'cr-hdfc0000001-acme'.
    const upi = 'UPI · Swiggy · 527411112222\nUPI-SWIGGY-swiggy@axisbank-UTIB0000000-527411112222-Payment';
    expect(cutNotes([note(0, upi, 1)]).words.words).toEqual([
      'upi-swiggy-swiggy@axisbank-utib0000000-527411112222-payment',
      '·',
    ]);
    expect(cutNotes([note(0, NOTES[2]!, 1)]).words.words).toEqual([
      '4',
      'cr-hdfc0000001-acme',
      'ltd-sal',
      'neft',
      'payroll',
    ]);
    // Each posting with its row's sort key: the moved rows' at their new date only.
    const postings = await db.query(
      `SELECT word, transaction_id::text AS id, transaction_date::text AS date, created_at
         FROM transaction_note_word_rows WHERE user_id = $1
        ORDER BY word COLLATE "C", transaction_id, transaction_date`,
      [userId],
    );
    const expectedPostings = await db.query(
      `SELECT word, id, date, created_at FROM (
         SELECT DISTINCT w.word, t.id::text AS id, t.transaction_date::text AS date, t.created_at FROM kept t
          CROSS JOIN LATERAL regexp_split_to_table(lower(t.notes), '[[:space:]]+') AS w(word)
          WHERE w.word <> '' AND NOT EXISTS (${LONGER})) d ORDER BY word COLLATE "C", id::uuid`,
    );
    expect(postings.rows).toEqual(expectedPostings.rows);
    expect(postings.rows.filter((r) => r.date === movedDate).length).toBeGreaterThan(2);
    const words = await db.query(
      `SELECT word, n::int FROM transaction_note_words WHERE user_id = $1 ORDER BY word COLLATE "C"`,
      [userId],
    );
    const expectedWords = await db.query(
      `SELECT word, count(*)::int AS n FROM (
         SELECT DISTINCT w.word, t.id FROM kept t
          CROSS JOIN LATERAL regexp_split_to_table(lower(t.notes), '[[:space:]]+') AS w(word)
          WHERE w.word <> '' AND NOT EXISTS (${LONGER})) d GROUP BY word ORDER BY word COLLATE "C"`,
    );
    expect(words.rows).toEqual(expectedWords.rows);
  });
});
