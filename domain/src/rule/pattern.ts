import { RE2JS } from 're2js';

/**
 * Rule patterns (issue 31 item 7). A pattern runs on RE2JS, a port of RE2: matching takes time
 * linear in the text whatever the pattern, so nothing a user writes can backtrack without end
 * (backreferences and look-around, which would need backtracking, are not RE2 syntax and are
 * refused as not valid). On top of that, a pattern whose repetition is itself repeated — star
 * height above one, such as `(a+)+` or `(\w*)*`, the shapes that run away in backtracking
 * engines — is refused too, as the issue asks, so a rule stays a pattern any engine could run
 * safely (a user may paste one into a spreadsheet or a bank's search). Length is bounded.
 */
export const PATTERN_MAX_LENGTH = 200;

export const PATTERN_MESSAGES = {
  tooLong: `Pattern must not exceed ${PATTERN_MAX_LENGTH} characters`,
  invalid: 'Pattern is not a valid pattern',
  runaway:
    'Pattern could run away: a repeated group holds a repetition, as in (a+)+. Write it without nesting',
} as const;

/** Whether a quantifier starting at `i` repeats more than once: `*`, `+`, `{n,}`, `{n,m}` with m > 1. */
function quantifierAt(pattern: string, i: number): { repeats: boolean; length: number } | null {
  const c = pattern[i];
  if (c === '*' || c === '+') return { repeats: true, length: 1 };
  if (c === '?') return { repeats: false, length: 1 };
  if (c === '{') {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
    if (!match) return null;
    const max =
      match[2] === undefined
        ? Number(match[1])
        : match[3] === ''
          ? Number.POSITIVE_INFINITY
          : Number(match[3]);
    return { repeats: max > 1, length: match[0].length };
  }
  return null;
}

/**
 * True when a repeated group holds a repetition (star height above one). Reads escapes and
 * character classes as single atoms; a lazy or possessive mark after a quantifier is skipped.
 */
export function hasNestedRepetition(pattern: string): boolean {
  /** Per open group: whether something inside it repeats. */
  const groups: boolean[] = [false];
  /** The atom a quantifier would apply to: a group (with whether it holds a repetition) or another. */
  let last: { group: boolean; repeats: boolean } | null = null;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (c === '\\') {
      last = { group: false, repeats: false };
      i += 2;
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      last = { group: false, repeats: false };
      i = j + 1;
      continue;
    }
    if (c === '(') {
      groups.push(false);
      last = null;
      i++;
      continue;
    }
    if (c === ')') {
      const inner = groups.length > 1 ? (groups.pop() as boolean) : false;
      groups[groups.length - 1] ||= inner;
      last = { group: true, repeats: inner };
      i++;
      continue;
    }
    const quantifier: ReturnType<typeof quantifierAt> = last ? quantifierAt(pattern, i) : null;
    if (quantifier) {
      if (quantifier.repeats && last?.group && last.repeats) return true;
      if (quantifier.repeats) groups[groups.length - 1] = true;
      // A quantified group now counts as a repetition when quantified again: ((a)+)+.
      last = { group: last?.group ?? false, repeats: (last?.repeats ?? false) || quantifier.repeats };
      i += quantifier.length;
      if (pattern[i] === '?' || pattern[i] === '+') i++;
      continue;
    }
    last = c === '|' ? null : { group: false, repeats: false };
    i++;
  }
  return false;
}

/** The pattern's first problem (a message of `PATTERN_MESSAGES`), or null when it may be used. */
export function patternError(pattern: string): string | null {
  if ([...pattern].length > PATTERN_MAX_LENGTH) return PATTERN_MESSAGES.tooLong;
  try {
    RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch {
    return PATTERN_MESSAGES.invalid;
  }
  return hasNestedRepetition(pattern) ? PATTERN_MESSAGES.runaway : null;
}

/** A tester of a valid pattern (case-insensitive; finds it anywhere in the text). */
export function compilePattern(pattern: string): (text: string) => boolean {
  const compiled = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  return (text) => compiled.matcher(text).find();
}
