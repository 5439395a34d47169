import { describe, expect, it } from 'vitest';
import { pageItems } from './pageItems';

describe('pageItems', () => {
  it('shows every page when there are few', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(2, 3)).toEqual([1, 2, 3]);
  });

  it('keeps the first and last pages and the pages within 2 of the current, with gaps', () => {
    expect(pageItems(1, 10)).toEqual([1, 2, 3, 'gap', 10]);
    expect(pageItems(5, 10)).toEqual([1, 'gap', 3, 4, 5, 6, 7, 'gap', 10]);
    expect(pageItems(4, 10)).toEqual([1, 2, 3, 4, 5, 6, 'gap', 10]);
    expect(pageItems(6, 12)).toEqual([1, 'gap', 4, 5, 6, 7, 8, 'gap', 12]);
    expect(pageItems(10, 10)).toEqual([1, 'gap', 8, 9, 10]);
  });

  it('keeps only the neighbours of the current page on a phone (radius 1)', () => {
    expect(pageItems(5, 10, 1)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10]);
    expect(pageItems(1, 10, 1)).toEqual([1, 2, 'gap', 10]);
  });

  it('shows nothing when there are no pages', () => {
    expect(pageItems(1, 0)).toEqual([]);
  });
});
