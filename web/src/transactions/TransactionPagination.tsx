import { Button, ButtonGroup } from '@blueprintjs/core';
import { useNarrowScreen } from '../app/useNarrowScreen';
import { pageItems } from './pageItems';
import type { TransactionPagination as Pagination } from './transactionsApi';

type Props = {
  pagination: Pagination;
  /** The page asked for: the buttons move from it at once, while `pagination` still answers for the one before. */
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
};

/** Shown only when there is more than one page (spec section 2). */
export function TransactionPagination({ pagination, page, pageSize, onPage }: Props) {
  // A phone has room for the pages next to the current one only (390 px, no sideways scroll).
  const radius = useNarrowScreen() ? 1 : 2;
  const { current_page: shown, total_pages: total, total_items: items } = pagination;
  if (total <= 1) return null;
  // Two quick clicks on Previous go back two pages, not one twice from the page still shown.
  const current = Math.min(Math.max(page, 1), total);
  const first = (shown - 1) * pageSize + 1;
  const last = Math.min(shown * pageSize, items);
  return (
    <nav className="kosh-pagination" aria-label="Transaction pages">
      <span className="kosh-muted">
        Showing {first} to {last} of {items} transactions
      </span>
      <ButtonGroup className="kosh-page-buttons">
        <Button
          icon="double-chevron-left"
          aria-label="First page"
          disabled={current === 1}
          onClick={() => onPage(1)}
        />
        <Button
          icon="chevron-left"
          aria-label="Previous page"
          disabled={current <= 1}
          onClick={() => onPage(current - 1)}
        />
        {pageItems(current, total, radius).map((item, index) =>
          item === 'gap' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a gap has no identity beyond its place
            <Button key={`gap-${index}`} disabled text="…" aria-hidden tabIndex={-1} />
          ) : (
            <Button
              key={item}
              text={item}
              active={item === current}
              aria-label={`Page ${item}`}
              aria-current={item === current ? 'page' : undefined}
              onClick={() => onPage(item)}
            />
          ),
        )}
        <Button
          icon="chevron-right"
          aria-label="Next page"
          disabled={current >= total}
          onClick={() => onPage(current + 1)}
        />
        <Button
          icon="double-chevron-right"
          aria-label="Last page"
          disabled={current === total}
          onClick={() => onPage(total)}
        />
      </ButtonGroup>
    </nav>
  );
}
