import { IconNames as Blueprint } from '@blueprintjs/icons/lib/esm/iconNames';
import { describe, expect, it } from 'vitest';
import { IconNames, IconNamesSet } from './iconNames';

describe('the light icon names', () => {
  it("spell every one of Blueprint's icon names as Blueprint does, both key styles", () => {
    const keys = Object.keys(Blueprint);
    expect(keys.length).toBeGreaterThan(1000);
    for (const key of keys)
      expect([key, IconNames[key]]).toEqual([key, Blueprint[key as keyof typeof Blueprint]]);
  });

  it('accept every icon name and refuse what cannot be one', () => {
    for (const name of Object.values(Blueprint)) expect(IconNamesSet.has(name)).toBe(true);
    for (const name of ['', 'Caret-Down', 'caret down', '../secret', 'caret--down', '-caret'])
      expect(IconNamesSet.has(name)).toBe(false);
  });
});
