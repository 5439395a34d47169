import { Button, Callout, Card, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useEffect, useRef } from 'react';
import { formatDateTime } from '../format';
import type { TimelineEntry } from './historyApi';
import { changeValue, eventLabel, streamKind } from './historyDisplay';

/** One entry: when, what, and each field it changed (from → to). */
function Entry({ entry, onOnlyThis }: { entry: TimelineEntry; onOnlyThis?: (stream: string) => void }) {
  const headingId = `kosh-history-${entry.position.replace(/\W/g, '-')}`;
  return (
    <li className="kosh-history-entry" aria-labelledby={headingId}>
      <Card compact>
        <div className="kosh-history-entry-head">
          <div>
            <h2 id={headingId} className="kosh-history-summary">
              {entry.summary}
            </h2>
            <span className="kosh-muted">
              <time dateTime={entry.recordedAt}>{formatDateTime(entry.recordedAt)}</time>
            </span>
          </div>
          <div className="kosh-history-tags">
            <Tag minimal>{streamKind(entry.stream)}</Tag>
            <Tag minimal intent="primary">
              {eventLabel(entry.type)}
            </Tag>
            {onOnlyThis ? (
              <Button
                variant="minimal"
                size="small"
                icon="filter"
                text="Only this item"
                // The name starts with the words on the button (axe: label-content-name-mismatch).
                aria-label={`Only this item: the history of this ${streamKind(entry.stream).toLowerCase()}`}
                onClick={() => onOnlyThis(entry.stream)}
              />
            ) : null}
          </div>
        </div>
        {entry.changes.length > 0 ? (
          <HTMLTable compact className="kosh-history-changes" aria-label={`Changes: ${entry.summary}`}>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">From</th>
                <th scope="col">To</th>
              </tr>
            </thead>
            <tbody>
              {entry.changes.map((c) => (
                <tr key={c.field}>
                  <th scope="row">{c.field}</th>
                  <td className="kosh-history-from">{changeValue(c.field, c.from)}</td>
                  <td className="kosh-history-to">{changeValue(c.field, c.to)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        ) : null}
      </Card>
    </li>
  );
}

type Props = {
  label: string;
  entries: readonly TimelineEntry[] | undefined;
  loading: boolean;
  fetching: boolean;
  failed: boolean;
  hasMore: boolean;
  onMore: () => void;
  onOnlyThis?: (stream: string) => void;
  /** The scrolling element the next page is asked for in (the drawer's body); the page when absent. */
  scrollRoot?: Element | null;
};

/**
 * A timeline, newest first, with infinite scroll: the next page is asked for when the list's end
 * comes into view, and a 'Load older entries' button does the same from the keyboard.
 */
export function Timeline({
  label,
  entries,
  loading,
  fetching,
  failed,
  hasMore,
  onMore,
  onOnlyThis,
  scrollRoot,
}: Props) {
  const end = useRef<HTMLDivElement>(null);
  const more = useRef(onMore);
  more.current = onMore;
  useEffect(() => {
    const target = end.current;
    if (!target || !hasMore || fetching || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (seen) => {
        if (seen.some((s) => s.isIntersecting)) more.current();
      },
      { root: scrollRoot ?? null, rootMargin: '200px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasMore, fetching, scrollRoot]);

  if (loading)
    return (
      <div className="kosh-page-loading" role="status">
        <Spinner aria-hidden />
        <span>Loading history...</span>
      </div>
    );
  if (failed && !entries?.length)
    return (
      <Callout intent="danger" icon="error" role="alert">
        Failed to load history
      </Callout>
    );
  if (!entries?.length)
    return <NonIdealState icon="history" title="No history" description="Nothing was recorded here yet." />;
  return (
    <>
      <ol className="kosh-history-list" aria-label={label} aria-busy={fetching}>
        {entries.map((entry) => (
          <Entry key={entry.position} entry={entry} onOnlyThis={onOnlyThis} />
        ))}
      </ol>
      <div ref={end} className="kosh-history-end">
        {hasMore ? (
          <Button text="Load older entries" icon="arrow-down" loading={fetching} onClick={onMore} />
        ) : (
          <span className="kosh-muted">The beginning of the history.</span>
        )}
      </div>
    </>
  );
}
