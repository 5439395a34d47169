import { Button, ButtonGroup, HTMLSelect } from '@blueprintjs/core';
import type { LoanPage } from './loansApi';

const PAGE_SIZES = [5, 10, 25, 50] as const;

type Props = {
  pagination: LoanPage['pagination'];
  /** The chosen page size: shown at once, while `pagination` still answers for the one before. */
  limit: number;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
};

/** The results caption, the page size and the previous/next buttons; hidden when nothing matched. */
export function LoanPagination({ pagination, limit, onPage, onLimit }: Props) {
  const { page, totalItems, totalPages } = pagination;
  if (totalItems === 0) return null;
  return (
    <nav className="kosh-pagination" aria-label="Loan pages">
      <span className="kosh-muted">
        Showing {(page - 1) * pagination.limit + 1} to {Math.min(page * pagination.limit, totalItems)} of{' '}
        {totalItems} results
      </span>
      <div className="kosh-actions">
        <HTMLSelect
          aria-label="Loans per page"
          value={limit}
          onChange={(e) => onLimit(Number(e.target.value))}
          options={PAGE_SIZES.map((size) => ({ value: size, label: `${size} per page` }))}
        />
        <ButtonGroup>
          <Button
            icon="chevron-left"
            aria-label="Previous page"
            disabled={page <= 1}
            onClick={() => onPage(page - 1)}
          />
          <Button disabled text={`${page} / ${Math.max(totalPages, 1)}`} />
          <Button
            icon="chevron-right"
            aria-label="Next page"
            disabled={page >= totalPages}
            onClick={() => onPage(page + 1)}
          />
        </ButtonGroup>
      </div>
    </nav>
  );
}
