import { Button, ButtonGroup, HTMLSelect } from '@blueprintjs/core';
import type { LoanPage } from './loansApi';

const PAGE_SIZES = [5, 10, 25, 50] as const;

type Props = {
  pagination: LoanPage['pagination'];
  /** The chosen page size: shown at once, while `pagination` still answers for the one before. */
  limit: number;
  /** The page asked for: Previous and Next move from it at once, so two quick clicks move two pages. */
  page: number;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
};

/** The results caption, the page size and the previous/next buttons; hidden when nothing matched. */
export function LoanPagination({ pagination, limit, page, onPage, onLimit }: Props) {
  if (pagination.totalItems === 0) return null;
  const pages = Math.max(pagination.totalPages, 1);
  const current = Math.min(Math.max(page, 1), pages);
  return (
    <nav className="kosh-pagination" aria-label="Loan pages">
      <span className="kosh-muted">
        Showing {(pagination.page - 1) * pagination.limit + 1} to{' '}
        {Math.min(pagination.page * pagination.limit, pagination.totalItems)} of {pagination.totalItems}{' '}
        results
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
            disabled={current <= 1}
            onClick={() => onPage(current - 1)}
          />
          <Button disabled text={`${current} / ${pages}`} />
          <Button
            icon="chevron-right"
            aria-label="Next page"
            disabled={current >= pages}
            onClick={() => onPage(current + 1)}
          />
        </ButtonGroup>
      </div>
    </nav>
  );
}
