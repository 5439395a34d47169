/**
 * The note grams and words of a batch cut in JS where that gives exactly what PostgreSQL's cut
 * gives (issue 30 item 11: a 50,000-row import spent 37 s of its 50 s fold cutting 13 million
 * grams in SQL). A note is cut here only when its lower-casing cannot differ: every character is
 * ASCII or has no case at all (`·`, `₹`, digits, Devanagari), so JS's toLowerCase and
 * PostgreSQL's lower() (any locale) agree, and it holds no surrogate pair, so a JS index is a
 * PostgreSQL character. Any other note (`İ`, `É`, an emoji) goes to the SQL cut unchanged.
 */
/**
 * Notes that leave (-1) and arrive (+1) per owner and transaction (projector.ts `notesDeltaOf`),
 * with the row's sort key that its postings carry (transactions migration 015): `date` is its
 * `YYYY-MM-DD`, `createdAt` its ISO-8601 instant.
 */
export type NotesDelta = {
  userId: string;
  id: string;
  date: string;
  createdAt: string;
  notes: string;
  sign: 1 | -1;
};

/** One user's one- and two-character pieces counted per note, and the words of each note. */
export type NoteCuts = {
  /** Notes cut in SQL (lower() of the database). */
  inSql: NotesDelta[];
  grams: { userIds: string[]; grams: string[]; n: number[] };
  /**
   * Postings to add (sign > 0) or take (sign < 0), one per owner, word, transaction and sort key
   * (a row whose date moved takes its postings at the old date and adds them at the new).
   */
  words: {
    userIds: string[];
    words: string[];
    dates: string[];
    createdAts: string[];
    ids: string[];
    signs: number[];
  };
  /** The change of each owner's count of each word (0 left out). */
  wordCounts: { userIds: string[]; words: string[]; n: number[] };
};

const caseless = new Map<number, boolean>();

/** Whether lower() of PostgreSQL and toLowerCase() of JS agree on every character of `text`. */
export function cutsLikePostgres(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c >= 0xd800 && c <= 0xdfff) return false;
    let known = caseless.get(c);
    if (known === undefined) {
      const ch = String.fromCharCode(c);
      known = ch.toLowerCase() === ch && ch.toUpperCase() === ch;
      caseless.set(c, known);
    }
    if (!known) return false;
  }
  return true;
}

/**
 * A posting's sort key and transaction as one string, parted by NUL (which no text of
 * PostgreSQL's holds), in the order of the postings' primary key.
 */
const postingKey = (note: NotesDelta) => `${note.date}\0${note.createdAt}\0${note.id}`;

/** `[[:space:]]` of PostgreSQL's regular expressions, for the characters cut here. */
const SPACE = /[ \t\n\v\f\r]+/;

/**
 * The distinct words of a lower-cased `text` (cut at white space) that no longer word of it
 * holds (transactions migration 013): a term found inside a word is also inside every word
 * holding that one, so the row is found through the longest, and the search's rows and counts
 * are the same without the others. An imported UPI row's notes ("upi · swiggy · 527411112222")
 * repeat pieces of its narration's one long word: 2 postings instead of 5.
 */
export function maximalWords(text: string): string[] {
  const words = [...new Set(text.split(SPACE))].filter((word) => word !== '');
  if (words.length < 2) return words;
  return words.filter((word) => !words.some((other) => other.length > word.length && other.includes(word)));
}

/**
 * The same counts as the SQL of `ADD_TO_NOTE_INDEXES` (projector.ts): each note's distinct
 * pieces of one and two characters of its lower-cased text added (sign) to its owner's counts,
 * and each note's distinct words (cut at white space, `maximalWords`) as postings, summed per
 * owner, word and transaction.
 */
export function cutNotes(delta: readonly NotesDelta[]): NoteCuts {
  const out: NoteCuts = {
    inSql: [],
    grams: { userIds: [], grams: [], n: [] },
    words: { userIds: [], words: [], dates: [], createdAts: [], ids: [], signs: [] },
    wordCounts: { userIds: [], words: [], n: [] },
  };
  // One owner at a time: a piece of one character (code < 65536) or of two ASCII characters
  // (65536 + c1 * 128 + c2) is counted in the typed arrays, any other pair in `other`; `last`
  // keeps the note that counted a piece last, so a note counts each of its pieces once.
  const byUser = new Map<string, NotesDelta[]>();
  for (const note of delta) {
    if (!cutsLikePostgres(note.notes)) out.inSql.push(note);
    else {
      const notes = byUser.get(note.userId);
      if (notes) notes.push(note);
      else byUser.set(note.userId, [note]);
    }
  }
  const counts = new Int32Array(65536 + 128 * 128);
  const last = new Int32Array(65536 + 128 * 128).fill(-1);
  const touched: number[] = [];
  for (const [userId, notes] of byUser) {
    const other = new Map<string, [number, number]>();
    // Keyed by the posting's sort key and transaction (`postingKey`).
    const words = new Map<string, Map<string, number>>();
    notes.forEach((note, k) => {
      const text = note.notes.toLowerCase();
      const sign = note.sign;
      const count = (code: number) => {
        if (last[code] === k) return;
        if (last[code] === -1) touched.push(code);
        last[code] = k;
        counts[code]! += sign;
      };
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        count(c);
        if (i + 1 === text.length) continue;
        const d = text.charCodeAt(i + 1);
        if (c < 128 && d < 128) count(65536 + c * 128 + d);
        else {
          const pair = text.slice(i, i + 2);
          const entry = other.get(pair);
          if (!entry) other.set(pair, [sign, k]);
          else if (entry[1] !== k) {
            entry[0] += sign;
            entry[1] = k;
          }
        }
      }
      const key = postingKey(note);
      let own = words.get(key);
      if (!own) {
        own = new Map();
        words.set(key, own);
      }
      for (const word of maximalWords(text)) own.set(word, (own.get(word) ?? 0) + sign);
    });
    for (const code of touched) {
      const n = counts[code]!;
      counts[code] = 0;
      last[code] = -1;
      // A note that left and came back (its row's date moved) changes no count.
      if (n === 0) continue;
      out.grams.userIds.push(userId);
      out.grams.grams.push(
        code < 65536
          ? String.fromCharCode(code)
          : String.fromCharCode((code - 65536) >> 7, (code - 65536) & 127),
      );
      out.grams.n.push(n);
    }
    touched.length = 0;
    for (const [gram, [n]] of other) {
      if (n === 0) continue;
      out.grams.userIds.push(userId);
      out.grams.grams.push(gram);
      out.grams.n.push(n);
    }
    // In word order: the postings' and the dictionary's indexes take them in their own order.
    // Grouped by word, then the plain string sorts (no comparator: a 50,000-row statement's
    // 277,000 postings sorted as tuples took half of this cut).
    const postings = new Map<string, Map<string, number>>();
    const wordCounts = new Map<string, number>();
    for (const [key, own] of words) {
      for (const [word, sign] of own) {
        if (sign === 0) continue;
        let keys = postings.get(word);
        if (!keys) {
          keys = new Map();
          postings.set(word, keys);
        }
        keys.set(key, sign);
        wordCounts.set(word, (wordCounts.get(word) ?? 0) + sign);
      }
    }
    const sorted = [...postings.keys()].sort();
    for (const word of sorted) {
      const keys = postings.get(word)!;
      for (const key of [...keys.keys()].sort()) {
        const [date, createdAt, id] = key.split('\0') as [string, string, string];
        out.words.userIds.push(userId);
        out.words.words.push(word);
        out.words.dates.push(date);
        out.words.createdAts.push(createdAt);
        out.words.ids.push(id);
        out.words.signs.push(keys.get(key)!);
      }
    }
    for (const word of sorted) {
      const n = wordCounts.get(word)!;
      if (n === 0) continue;
      out.wordCounts.userIds.push(userId);
      out.wordCounts.words.push(word);
      out.wordCounts.n.push(n);
    }
  }
  return out;
}
