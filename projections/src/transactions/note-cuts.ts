/**
 * The note grams and words of a batch cut in JS where that gives exactly what PostgreSQL's cut
 * gives (issue 30 item 11: a 50,000-row import spent 37 s of its 50 s fold cutting 13 million
 * grams in SQL). A note is cut here only when its lower-casing cannot differ: every character is
 * ASCII or has no case at all (`·`, `₹`, digits, Devanagari), so JS's toLowerCase and
 * PostgreSQL's lower() (any locale) agree, and it holds no surrogate pair, so a JS index is a
 * PostgreSQL character. Any other note (`İ`, `É`, an emoji) goes to the SQL cut unchanged.
 */
/** Notes that leave (-1) and arrive (+1) per owner and transaction (projector.ts `notesDeltaOf`). */
export type NotesDelta = { userId: string; id: string; notes: string; sign: 1 | -1 };

/** One user's one- and two-character pieces counted per note, and the words of each note. */
export type NoteCuts = {
  /** Notes cut in SQL (lower() of the database). */
  inSql: NotesDelta[];
  grams: { userIds: string[]; grams: string[]; n: number[] };
  words: { userIds: string[]; words: string[]; ids: string[]; signs: number[] };
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

/** `[[:space:]]` of PostgreSQL's regular expressions, for the characters cut here. */
const SPACE = /[ \t\n\v\f\r]+/;

/**
 * The same counts as the SQL of `ADD_TO_NOTE_INDEXES` (projector.ts): each note's distinct
 * pieces of one and two characters of its lower-cased text added (sign) to its owner's counts,
 * and each note's distinct words (cut at white space) as postings, summed per owner, word and
 * transaction.
 */
export function cutNotes(delta: readonly NotesDelta[]): NoteCuts {
  const inSql: NotesDelta[] = [];
  // Per owner: piece code -> [count, last note that counted it]. A piece of one character is its
  // code, of two characters 65536 + c1 * 65536 + c2 (both below 65536: no surrogates here).
  const grams = new Map<string, Map<number, [number, number]>>();
  const words = new Map<string, number>();
  delta.forEach((note, k) => {
    if (!cutsLikePostgres(note.notes)) {
      inSql.push(note);
      return;
    }
    const text = note.notes.toLowerCase();
    let counts = grams.get(note.userId);
    if (!counts) {
      counts = new Map();
      grams.set(note.userId, counts);
    }
    const add = (code: number) => {
      const entry = counts.get(code);
      if (!entry) counts.set(code, [note.sign, k]);
      else if (entry[1] !== k) {
        entry[0] += note.sign;
        entry[1] = k;
      }
    };
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      add(c);
      if (i + 1 < text.length) add(65536 + c * 65536 + text.charCodeAt(i + 1));
    }
    for (const word of new Set(text.split(SPACE))) {
      if (word === '') continue;
      const key = `${note.userId}\u0000${word}\u0000${note.id}`;
      words.set(key, (words.get(key) ?? 0) + note.sign);
    }
  });
  const out: NoteCuts = {
    inSql,
    grams: { userIds: [], grams: [], n: [] },
    words: { userIds: [], words: [], ids: [], signs: [] },
  };
  for (const [userId, counts] of grams) {
    for (const [code, [n]] of counts) {
      out.grams.userIds.push(userId);
      out.grams.grams.push(
        code < 65536
          ? String.fromCharCode(code)
          : String.fromCharCode(Math.floor((code - 65536) / 65536), (code - 65536) % 65536),
      );
      out.grams.n.push(n);
    }
  }
  for (const [key, sign] of words) {
    const [userId, word, id] = key.split('\u0000') as [string, string, string];
    out.words.userIds.push(userId);
    out.words.words.push(word);
    out.words.ids.push(id);
    out.words.signs.push(sign);
  }
  return out;
}
