/**
 * How guessable a token-signing secret is. Anyone holding one token can test guesses offline, so
 * a secret must be worth 32 random bytes: `openssl rand -base64 32` (or -hex 32, or more) passes;
 * published examples, keyboard walks and repeated phrases do not, whatever their length.
 */

/** Secrets published where people copy them from: jwt.io's examples, ours (.env.example). */
const PUBLISHED_SECRETS = [
  'your-256-bit-secret',
  'your-384-bit-secret',
  'your-512-bit-secret',
  'a-string-secret-at-least-256-bits-long',
  'change-me-to-a-long-random-string-of-32-plus-chars',
  'secretkey',
  'secret',
  'changeme',
  'password',
  'jwtsecret',
  'jwt_secret',
  'supersecret',
];

/**
 * What the estimate must reach. It runs up to a quarter below a random secret's true strength
 * (a random string holds short walks and repeats by chance too): base64 or hex of 32 random
 * bytes scored 188 or more over 150,000 draws, of 16 random bytes at most 128.
 */
export const MIN_SECRET_BITS = 170;

/** Keys of a US keyboard by row, unshifted and shifted: neighbours make a walk. */
const KEYBOARD_ROWS = [
  ['`1234567890-=', '~!@#$%^&*()_+'],
  ['qwertyuiop[]\\', 'QWERTYUIOP{}|'],
  ["asdfghjkl;'", 'ASDFGHJKL:"'],
  ['zxcvbnm,./', 'ZXCVBNM<>?'],
] as const;

const KEY_AT = new Map<string, { row: number; col: number }>();
KEYBOARD_ROWS.forEach((forms, row) => {
  for (const form of forms) {
    [...form].forEach((c, col) => {
      KEY_AT.set(c, { row, col });
    });
  }
});

/** Next to each other on the keyboard (rows are staggered half a key), or one code point apart. */
function predictableStep(previous: string, c: string): boolean {
  const a = previous.codePointAt(0) ?? 0;
  const b = c.codePointAt(0) ?? 0;
  if (Math.abs(a - b) === 1) return true;
  const p = KEY_AT.get(previous);
  const q = KEY_AT.get(c);
  if (!p || !q) return false;
  const down = q.row - p.row;
  if (Math.abs(down) > 1) return false;
  const across = q.col - p.col;
  return down === 0 ? Math.abs(across) <= 1 : across === 0 || across === -down;
}

/** Walks of at least this many predictable steps count as their first character alone. */
const WALK_STEPS = 4;
/** A substring of at least this length seen before counts as one character (a repeat). */
const REPEAT_LENGTH = 4;

/**
 * Which characters are chosen rather than implied: not inside a published secret (one character
 * stands for each occurrence), not repeating an earlier stretch, not continuing a walk.
 */
function chosenCharacters(secret: string): string[] {
  const chars = [...secret];
  const implied = new Array<boolean>(chars.length).fill(false);
  const lower = chars.map((c) => c.toLowerCase()).join('');
  for (const phrase of PUBLISHED_SECRETS) {
    for (let at = lower.indexOf(phrase); at >= 0; at = lower.indexOf(phrase, at + 1)) {
      for (let i = at + 1; i < at + phrase.length; i++) implied[i] = true;
    }
  }
  for (let i = 1; i < chars.length; ) {
    let longest = 0;
    for (let start = 0; start < i; start++) {
      let n = 0;
      while (i + n < chars.length && start + n < i && chars[start + n] === chars[i + n]) n++;
      longest = Math.max(longest, n);
    }
    if (longest >= REPEAT_LENGTH) {
      for (let k = 1; k < longest; k++) implied[i + k] = true;
      i += longest;
    } else i++;
  }
  const predictable = chars.map((c, i) => i > 0 && predictableStep(chars[i - 1] ?? '', c));
  // Mostly steps to a neighbour (qaz wsx edc …): a walk throughout, its short runs included.
  // Two thirds of the steps, not half: a random secret's step lands on a neighbour (the same key
  // in the other case included) about a quarter of the time, and a 43-character base64url secret
  // of 32 random bytes once had 21 of its 42 steps so, and was refused at 127 bits.
  if (predictable.filter(Boolean).length * 3 >= (chars.length - 1) * 2) {
    predictable.forEach((step, i) => {
      if (step) implied[i] = true;
    });
  }
  for (let i = 1; i < chars.length; ) {
    let end = i;
    while (end < chars.length && predictable[end]) end++;
    if (end - i >= WALK_STEPS) for (let k = i; k < end; k++) implied[k] = true;
    i = end === i ? i + 1 : end;
  }
  return chars.filter((_, i) => !implied[i]);
}

/**
 * Size of the alphabet `chars` appear to be drawn from: hex digits alone are 16; otherwise the
 * classes present (lower case 26, upper case 26, digits 10, anything else 33, as ASCII's symbols).
 */
function alphabetSize(chars: readonly string[]): number {
  if (chars.every((c) => /[0-9a-f]/.test(c)) || chars.every((c) => /[0-9A-F]/.test(c))) return 16;
  const classes: [RegExp, number][] = [
    [/[a-z]/, 26],
    [/[A-Z]/, 26],
    [/[0-9]/, 10],
    [/[^a-zA-Z0-9]/, 33],
  ];
  return classes.reduce((size, [pattern, n]) => (chars.some((c) => pattern.test(c)) ? size + n : size), 0);
}

/**
 * Bits a guesser must cover: the chosen characters times the bits of each, from the alphabet the
 * secret uses, but no more than a secret of so few distinct characters can carry (twice as many
 * as it shows, for a sample that has not shown all of its alphabet).
 */
export function estimatedSecretBits(secret: string): number {
  const chars = [...secret];
  if (chars.length === 0) return 0;
  const distinct = new Set(chars).size;
  const perChar = Math.min(Math.log2(alphabetSize(chars)), Math.log2(2 * distinct));
  return perChar * chosenCharacters(secret).length;
}

/** Why `secret` must not sign tokens, or null. */
export function weakSecretReason(secret: string): string | null {
  const lower = secret.trim().toLowerCase();
  if (PUBLISHED_SECRETS.includes(lower)) return 'is a published example value';
  const bits = estimatedSecretBits(secret);
  if (bits < MIN_SECRET_BITS) {
    return `has about ${Math.floor(bits)} bits of entropy, under the ${MIN_SECRET_BITS} required`;
  }
  return null;
}
