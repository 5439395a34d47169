export type PageItem = number | 'gap';

/**
 * The page buttons of the transaction book (spec section 2): the first and last pages, the pages
 * within `radius` (2; 1 on a phone) of the current one, and a gap (ellipsis) wherever pages are
 * skipped.
 */
export function pageItems(current: number, total: number, radius = 2): PageItem[] {
  if (total < 1) return [];
  const items: PageItem[] = [];
  let previous = 0;
  for (let page = 1; page <= total; page++) {
    const shown = page === 1 || page === total || Math.abs(page - current) <= radius;
    if (!shown) continue;
    if (page - previous > 1) items.push('gap');
    items.push(page);
    previous = page;
  }
  return items;
}
