import { describe, expect, it } from 'vitest';
import { purgeCss, requiredClasses } from './cssPurge';
import type { UsedClasses } from './usedClasses';

const used = (classes: string[], words: string[] = []): UsedClasses => ({
  exact: new Set(classes),
  words: new Set(words),
  prefixes: new Set(),
});
const purge = (css: string, u: UsedClasses, otherCss = '') =>
  purgeCss(css, { prefix: 'bp6-', used: u, otherCss }).css;

describe('the classes a selector requires', () => {
  it('are those outside functional pseudo-classes, attribute selectors and strings', () => {
    expect(requiredClasses('.bp6-button:not(.bp6-minimal) > .bp6-icon')).toEqual(['bp6-button', 'bp6-icon']);
    expect(requiredClasses('.bp6-dark :is(.bp6-a, .bp6-b)[class*="bp6-intent-"]')).toEqual(['bp6-dark']);
    expect(requiredClasses('a[href=".bp6-x"]::before')).toEqual([]);
  });
});

describe('purging the Blueprint CSS the code cannot use', () => {
  it('keeps, selector by selector, those whose Blueprint classes are all used', () => {
    const css = '.bp6-button,.bp6-slider{color:red}.bp6-dark .bp6-button{color:blue}.bp6-dark .bp6-tree{x:y}';
    expect(purge(css, used(['bp6-button', 'bp6-dark']))).toBe(
      '.bp6-button{color:red}.bp6-dark .bp6-button{color:blue}',
    );
  });

  it('keeps element selectors, other namespaces and selectors that only exclude unused classes', () => {
    const css = 'body{margin:0}.kosh-row .bp6-tag{a:b}.bp6-button:not(.bp6-outlined){c:d}.kosh-row{e:f}';
    expect(purge(css, used(['bp6-button']))).toBe(
      'body{margin:0}.bp6-button:not(.bp6-outlined){c:d}.kosh-row{e:f}',
    );
  });

  it('empties @media and @supports blocks and drops them when nothing is left', () => {
    const css = '@media (forced-colors:active){.bp6-slider{a:b}}@supports (color:red){.bp6-button{c:d}}';
    expect(purge(css, used(['bp6-button']))).toBe('@supports (color:red){.bp6-button{c:d}}');
  });

  it('is not confused by braces and commas in strings', () => {
    const css = '.bp6-icon-add::before{content:"}{,"}.bp6-icon-x::before{content:"\\"}"}.bp6-button{a:b}';
    expect(purge(css, used(['bp6-icon-add', 'bp6-button']))).toBe(
      '.bp6-icon-add::before{content:"}{,"}.bp6-button{a:b}',
    );
  });

  it('drops custom properties nothing refers to, following var() chains', () => {
    const css =
      ':root{--bp-a:red;--bp-b:var(--bp-c);--bp-c:blue;--bp-d:green;--bp-e:1px;--bp-f:2px}.bp6-button{color:var(--bp-b)}';
    // --bp-e is read by another stylesheet, --bp-f by the code (an inline style).
    expect(purge(css, used(['bp6-button'], ['--bp-f']), '.kosh-x{margin:var(--bp-e)}')).toBe(
      ':root{--bp-b:var(--bp-c);--bp-c:blue;--bp-e:1px;--bp-f:2px}.bp6-button{color:var(--bp-b)}',
    );
  });

  it('drops keyframes and fonts no kept rule names', () => {
    const css =
      '@keyframes spin{to{rotate:1turn}}@keyframes glow{to{opacity:0}}@font-face{font-family:"icons-16";src:url(a.woff)}' +
      '.bp6-spinner{animation:spin 1s}.bp6-skeleton{animation:glow 1s}.bp6-slider{font-family:"icons-16"}';
    expect(purge(css, used(['bp6-spinner']))).toBe(
      '@keyframes spin{to{rotate:1turn}}.bp6-spinner{animation:spin 1s}',
    );
  });
});
