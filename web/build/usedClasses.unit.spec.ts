// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the fixtures are JavaScript source text.
import { describe, expect, it } from 'vitest';
import { collectUsedClasses, isUsedClass } from './usedClasses';

/** Two chunks shaped as the minifier writes Blueprint's classes module and a screen using it. */
const blueprint = {
  fileName: 'assets/blueprint-a1.js',
  code: [
    'var O=`bp6`;',
    'var b=`${O}-button`,g=`${b}-group`,t=`${b}-text`;`${b}`;',
    'var d=`${O}-drawer`;`${d}`,`${d}`;',
    'var m=`${O}-menu`;',
    'function ic(e){return `${O}-icon-${e}`}',
    'function it(e){return `${O}-intent-${e.toLowerCase()}`}',
    'function f(d){return d+1}',
    'export{O as n,b as r,g as i,ic as c,it as a};',
  ].join('\n'),
};
const screen = {
  fileName: 'assets/Screen-b2.js',
  code: [
    'import{r as x,i as y,c as z,a as w}from"./blueprint-a1.js";',
    'var s=`${x}-large`;',
    'export function S(){return [y,s,z(`add`),w(`primary`),`plain-class another`,f(`bp6-card`)]}',
  ].join('\n'),
};

describe('the classes the built code can produce', () => {
  const used = collectUsedClasses([blueprint, screen]);
  const usedClass = (name: string) => isUsedClass(used, name);

  it('counts constants the code reads, across chunks', () => {
    expect(usedClass('bp6-button')).toBe(true);
    expect(usedClass('bp6-button-group')).toBe(true);
    expect(usedClass('bp6-button-large')).toBe(true);
  });

  it('does not count constants only the minifier’s leftovers read', () => {
    // `t` (BUTTON_TEXT) is defined but never read; `d` only in discarded `${d}` statements.
    expect(usedClass('bp6-button-text')).toBe(false);
    expect(usedClass('bp6-drawer')).toBe(false);
    expect(usedClass('bp6-menu')).toBe(false);
  });

  it('tells a local name from the module-level one it shadows', () => {
    // `f(d)` reads its parameter `d`, not the module's `d` (the drawer).
    expect(usedClass('bp6-drawer')).toBe(false);
  });

  it('counts a computed end when the code holds it as a word', () => {
    expect(usedClass('bp6-icon-add')).toBe(true);
    expect(usedClass('bp6-icon-remove')).toBe(false);
    expect(usedClass('bp6-intent-primary')).toBe(true);
    expect(usedClass('bp6-intent-danger')).toBe(false);
  });

  it('counts classes written out in the code or the page', () => {
    expect(usedClass('bp6-card')).toBe(true);
    expect(usedClass('plain-class')).toBe(true);
    expect(isUsedClass(collectUsedClasses([], ['<body class="bp6-dark">']), 'bp6-dark')).toBe(true);
  });
});
