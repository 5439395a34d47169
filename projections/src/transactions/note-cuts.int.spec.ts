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
    const cuts = cutNotes(NOTES.map((notes) => ({ userId, id: randomUUID(), notes, sign: 1 as const })));
    expect(cuts.inSql.map((n) => n.notes)).toEqual([
      'CAFÉ Éclair',
      'İstanbul Iı',
      'Pizza 🍕 night',
      'ß straße STRASSE',
    ]);
  });

  it('holds what the SQL cut of the notes left gives, after notes arrive and leave', async () => {
    const ids = NOTES.map(() => randomUUID());
    await db.query(`CREATE TEMP TABLE kept (id uuid, user_id text, notes text)`);
    // Every note arrives, then the first three leave and come back changed (one batch each).
    const arriving = NOTES.map((notes, i) => ({ userId, id: ids[i]!, notes, sign: 1 as const }));
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
      ...NOTES.slice(0, 3).map((notes, i) => ({ userId, id: ids[i]!, notes, sign: -1 as const })),
      ...NOTES.slice(0, 3).map((notes, i) => ({
        userId,
        id: ids[i]!,
        notes: `${notes} É again`,
        sign: 1 as const,
      })),
    ]);
    const kept = NOTES.map((notes, i) => (i < 3 ? `${notes} É again` : notes));
    await db.query(`INSERT INTO kept SELECT unnest($1::uuid[]), $2, unnest($3::text[])`, [ids, userId, kept]);
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
    expect(cutNotes([{ userId, id: ids[0]!, notes: upi, sign: 1 }]).words.words).toEqual([
      'upi-swiggy-swiggy@axisbank-utib0000000-527411112222-payment',
      '·',
    ]);
    expect(cutNotes([{ userId, id: ids[0]!, notes: NOTES[2]!, sign: 1 }]).words.words).toEqual([
      '4',
      'cr-hdfc0000001-acme',
      'ltd-sal',
      'neft',
      'payroll',
    ]);
    const postings = await db.query(
      `SELECT word, transaction_id::text AS id FROM transaction_note_word_rows WHERE user_id = $1
        ORDER BY word COLLATE "C", transaction_id`,
      [userId],
    );
    const expectedPostings = await db.query(
      `SELECT word, id FROM (
         SELECT DISTINCT w.word, t.id::text AS id FROM kept t
          CROSS JOIN LATERAL regexp_split_to_table(lower(t.notes), '[[:space:]]+') AS w(word)
          WHERE w.word <> '' AND NOT EXISTS (${LONGER})) d ORDER BY word COLLATE "C", id::uuid`,
    );
    expect(postings.rows).toEqual(expectedPostings.rows);
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
