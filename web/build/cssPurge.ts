/**
 * Drops the Blueprint CSS the built JavaScript cannot use (issue 33), selector by selector: a
 * selector stays when every class of the namespace (`bp6-…`) it requires is one the code can
 * produce (build/usedClasses.ts). Classes under `:not()`, `:is()` and other functional
 * pseudo-classes, and in attribute selectors, are not required (`:not(.x)` matches when `.x` is
 * absent); classes of other namespaces (`kosh-…`) always count. Then custom properties,
 * `@keyframes` and `@font-face` that nothing kept, in another stylesheet or in the code refers to
 * go too.
 *
 * A small CSS reader does it: rules, at-rules holding rules (`@media`, `@supports`), other
 * at-rules kept whole, declarations. Strings, comments and parentheses are skipped over, so
 * `content: "}"` or `:not(.a, .b)` do not confuse it.
 */
import { isUsedClass, type UsedClasses } from './usedClasses';

type CssNode =
  | { kind: 'rule'; selectors: string[]; body: string }
  | { kind: 'block'; name: string; prelude: string; children: CssNode[] }
  | { kind: 'opaque'; text: string; name: string; prelude: string; body: string | null };

/** At-rules whose block holds rules (the others, @keyframes or @font-face, are kept whole or not). */
const GROUPING = new Set(['media', 'supports', 'layer', 'container', 'document', '-moz-document', 'scope']);

/** Index just past the string or comment starting at i, or i when none starts there. */
function skipStringOrComment(css: string, i: number): number {
  const ch = css[i];
  if (ch === '"' || ch === "'") {
    let j = i + 1;
    while (j < css.length && css[j] !== ch) j += css[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  if (ch === '/' && css[i + 1] === '*') {
    const end = css.indexOf('*/', i + 2);
    return end < 0 ? css.length : end + 2;
  }
  return i;
}

/** Index of the first of `stops` at depth 0 (parentheses, brackets) from i, or css.length. */
function findTopLevel(css: string, i: number, stops: string): number {
  let depth = 0;
  while (i < css.length) {
    const skipped = skipStringOrComment(css, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const ch = css[i] as string;
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (depth === 0 && stops.includes(ch)) return i;
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    i++;
  }
  return i;
}

/** Index of the `}` closing the block whose `{` is at `open`. */
function matchingBrace(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; ) {
    const skipped = skipStringOrComment(css, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const ch = css[i];
    if (ch === '\\') i++;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
    i++;
  }
  throw new Error('cssPurge: unbalanced braces');
}

/** Splits on top-level occurrences of one character (selector lists, declarations). */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = findTopLevel(text, 0, separator); i < text.length; i = findTopLevel(text, start, separator)) {
    parts.push(text.slice(start, i));
    start = i + 1;
  }
  parts.push(text.slice(start));
  return parts;
}

export function parseCss(css: string): CssNode[] {
  const nodes: CssNode[] = [];
  let i = 0;
  while (i < css.length) {
    const skipped = skipStringOrComment(css, i);
    if (skipped !== i || /\s/.test(css[i] as string)) {
      i = skipped !== i ? skipped : i + 1;
      continue;
    }
    const stop = findTopLevel(css, i, '{;');
    const prelude = css.slice(i, stop).trim();
    if (prelude.startsWith('@')) {
      const name = (/^@([\w-]+)/.exec(prelude)?.[1] ?? '').toLowerCase();
      const rest = prelude.slice(name.length + 1);
      if (css[stop] !== '{') {
        nodes.push({ kind: 'opaque', text: `${prelude};`, name, prelude: rest, body: null });
        i = stop + 1;
        continue;
      }
      const close = matchingBrace(css, stop);
      const body = css.slice(stop + 1, close);
      if (GROUPING.has(name)) nodes.push({ kind: 'block', name, prelude: rest, children: parseCss(body) });
      else nodes.push({ kind: 'opaque', text: css.slice(i, close + 1), name, prelude: rest, body });
      i = close + 1;
      continue;
    }
    if (css[stop] !== '{') throw new Error(`cssPurge: a rule without a block near "${prelude.slice(0, 60)}"`);
    const close = matchingBrace(css, stop);
    nodes.push({ kind: 'rule', selectors: splitTopLevel(prelude, ','), body: css.slice(stop + 1, close) });
    i = close + 1;
  }
  return nodes;
}

export function printCss(nodes: CssNode[]): string {
  return nodes
    .map((node) => {
      if (node.kind === 'rule') return `${node.selectors.map((s) => s.trim()).join(',')}{${node.body}}`;
      if (node.kind === 'block') return `@${node.name}${node.prelude}{${printCss(node.children)}}`;
      return node.text;
    })
    .join('');
}

/**
 * The classes a selector requires of the page: those outside parentheses (`:not(.x)`, `:is(.x)`
 * require nothing we can count on) and outside attribute selectors.
 */
export function requiredClasses(selector: string): string[] {
  const classes: string[] = [];
  let depth = 0;
  for (let i = 0; i < selector.length; ) {
    const skipped = skipStringOrComment(selector, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const ch = selector[i];
    if (ch === '\\') i += 2;
    else if (ch === '(' || ch === '[' || ch === ')' || ch === ']') {
      depth += ch === '(' || ch === '[' ? 1 : -1;
      i++;
    } else if (ch === '.' && depth === 0) {
      const match = /^\.((?:[\w-]|\\.)+)/.exec(selector.slice(i));
      if (match?.[1]) classes.push(match[1].replace(/\\(.)/g, '$1'));
      i += match ? match[0].length : 1;
    } else i++;
  }
  return classes;
}

export type PurgeStats = { selectorsBefore: number; selectorsAfter: number };

function purgeSelectors(nodes: CssNode[], keep: (cls: string) => boolean, stats: PurgeStats): CssNode[] {
  const out: CssNode[] = [];
  for (const node of nodes) {
    if (node.kind === 'rule') {
      stats.selectorsBefore += node.selectors.length;
      const selectors = node.selectors.filter((s) => requiredClasses(s).every(keep));
      stats.selectorsAfter += selectors.length;
      if (selectors.length > 0) out.push({ ...node, selectors });
    } else if (node.kind === 'block') {
      const children = purgeSelectors(node.children, keep, stats);
      if (children.length > 0) out.push({ ...node, children });
    } else out.push(node);
  }
  return out;
}

type Declaration = { text: string; custom: string | null };

function declarations(body: string): Declaration[] {
  return splitTopLevel(body, ';')
    .filter((d) => d.trim() !== '')
    .map((text) => ({ text, custom: /^\s*(--[\w-]+)\s*:/.exec(text)?.[1] ?? null }));
}

const VAR_REFERENCE = /var\(\s*(--[\w-]+)/g;

function forEachNode(nodes: CssNode[], visit: (node: CssNode) => void): void {
  for (const node of nodes) {
    visit(node);
    if (node.kind === 'block') forEachNode(node.children, visit);
  }
}

/** Rules whose body is declarations only (nested rules, if any, are left as they are). */
function forEachRule(nodes: CssNode[], visit: (node: CssNode & { kind: 'rule' }) => void): void {
  forEachNode(nodes, (node) => {
    if (node.kind === 'rule' && !node.body.includes('{')) visit(node);
  });
}

/**
 * Drops custom property declarations that no kept declaration, other stylesheet or script refers
 * to (following chains: `--a: var(--b)` keeps `--b` when `--a` is kept).
 */
function purgeCustomProperties(nodes: CssNode[], outside: string, words: Set<string>): void {
  const referenced = new Set<string>();
  const refer = (text: string) => {
    for (const [, name] of text.matchAll(VAR_REFERENCE)) referenced.add(name as string);
  };
  refer(outside);
  const customs: Declaration[] = [];
  const collect = (text: string) => {
    for (const d of declarations(text)) {
      if (d.custom) customs.push(d);
      else refer(d.text);
    }
  };
  forEachNode(nodes, (node) => {
    if (node.kind === 'rule') collect(node.body);
    else if (node.kind === 'opaque' && node.body) refer(node.body);
  });
  for (let changed = true; changed; ) {
    changed = false;
    for (const d of customs) {
      if (!d.custom || !(referenced.has(d.custom) || words.has(d.custom))) continue;
      const before = referenced.size;
      referenced.add(d.custom);
      refer(d.text);
      if (referenced.size !== before) changed = true;
    }
  }
  forEachRule(nodes, (rule) => {
    const kept = declarations(rule.body).filter(
      (d) => !d.custom || referenced.has(d.custom) || words.has(d.custom),
    );
    rule.body = kept.map((d) => d.text).join(';');
  });
}

function withoutEmptyRules(nodes: CssNode[]): CssNode[] {
  const out: CssNode[] = [];
  for (const node of nodes) {
    if (node.kind === 'rule') {
      if (node.body.trim() !== '') out.push(node);
    } else if (node.kind === 'block') {
      const children = withoutEmptyRules(node.children);
      if (children.length > 0) out.push({ ...node, children });
    } else out.push(node);
  }
  return out;
}

/** Drops @keyframes and @font-face that no kept rule, other stylesheet or script names. */
function withoutUnusedAtRules(nodes: CssNode[], outside: string, words: Set<string>): CssNode[] {
  let usage = outside;
  forEachRule(nodes, (rule) => {
    usage += `;${rule.body}`;
  });
  const usedWords = new Set(words);
  for (const [word] of usage.matchAll(/[\w-]+/g)) usedWords.add(word);
  const family = (body: string) => /font-family\s*:\s*["']?([^"';]+?)["']?\s*(;|$)/.exec(body)?.[1] ?? '';
  const keep = (node: CssNode): boolean => {
    if (node.kind !== 'opaque') return true;
    if (/keyframes$/.test(node.name)) return usedWords.has(node.prelude.trim());
    if (node.name === 'font-face' && node.body !== null) return usage.includes(family(node.body));
    return true;
  };
  return nodes
    .filter(keep)
    .map((node) =>
      node.kind === 'block'
        ? { ...node, children: withoutUnusedAtRules(node.children, outside, words) }
        : node,
    );
}

export type PurgeOptions = {
  /** The class prefix judged, e.g. `bp6-`; other classes are always kept. */
  prefix: string;
  used: UsedClasses;
  /** Other stylesheets of the build: their var(), animation and font references count. */
  otherCss?: string;
};

export function purgeCss(css: string, options: PurgeOptions): { css: string; stats: PurgeStats } {
  const stats: PurgeStats = { selectorsBefore: 0, selectorsAfter: 0 };
  const keep = (cls: string) => !cls.startsWith(options.prefix) || isUsedClass(options.used, cls);
  const outside = options.otherCss ?? '';
  let nodes = purgeSelectors(parseCss(css), keep, stats);
  purgeCustomProperties(nodes, outside, options.used.words);
  nodes = withoutEmptyRules(nodes);
  nodes = withoutUnusedAtRules(nodes, outside, options.used.words);
  return { css: printCss(nodes), stats };
}
