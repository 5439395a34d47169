import {
  type KeyboardEvent,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { flushSync } from 'react-dom';

/**
 * Long tables render in windows (issue 33): laying out 600+ rows was most of a cold start of the
 * schedule and the ledger. A table of more than `threshold` rows renders the rows in and near the
 * scroll viewport, with spacer rows of the others' height above and below, so the scroll bar,
 * the page's length and the row positions stay as if every row were there.
 *
 * All rows render while the browser's find may search the page (Ctrl/Cmd+F, Ctrl/Cmd+G, F3: the
 * keys that open or step the find bar; they stay rendered for the screen's life) and while
 * printing (beforeprint to afterprint). Find opened from the browser's menu is not seen: the
 * page cannot know of it.
 *
 * Focus: the row holding focus stays rendered when scrolled away, and a Tab from it first renders
 * the rows around it, so focus moves to the next row's control, not past the unrendered ones.
 */
export type RowSlot = { kind: 'row'; index: number } | { kind: 'spacer'; key: string; height: number };

type Options = {
  /** The scrolling box when the table scrolls in one; the window otherwise. */
  scroller?: RefObject<HTMLElement | null>;
  /** A row's height before it is measured, px. */
  estimate?: number;
  /** Tables of at most this many rows render whole. */
  threshold?: number;
  /** How far beyond the viewport rows are rendered, px. */
  overscan?: number;
};

type Range = { start: number; end: number };

/** Rows rendered on each side of a focused row a Tab leaves from. */
const TAB_REACH = 40;

export function useRowWindow(count: number, options: Options = {}) {
  const { scroller, estimate = 33, threshold = 100, overscan = 800 } = options;
  const windowed = count > threshold;
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  /** Measured heights by row index (0: not measured yet). */
  const heights = useRef<Float64Array>(new Float64Array(count));
  if (heights.current.length !== count) heights.current = new Float64Array(count);
  const [range, setRange] = useState<Range>(() => ({
    start: 0,
    end: Math.min(count, Math.ceil((viewportHeight() + overscan) / estimate)),
  }));
  const [all, setAll] = useState(false);
  const [printing, setPrinting] = useState(false);
  const [focused, setFocused] = useState<number | null>(null);

  const heightOf = useCallback((i: number) => heights.current[i] || estimate, [estimate]);

  /** The rows covering `top`..`bottom` px from the body's top edge. */
  const rowsAt = useCallback(
    (top: number, bottom: number): Range => {
      let at = 0;
      let start = 0;
      while (start < count && at + heightOf(start) <= top) at += heightOf(start++);
      let end = start;
      while (end < count && at < bottom) at += heightOf(end++);
      return { start, end: Math.max(end, Math.min(count, start + 1)) };
    },
    [count, heightOf],
  );

  /** The visible part of the body, px from its top edge; null before it is mounted. */
  const visible = useCallback((): { top: number; bottom: number } | null => {
    const body = bodyRef.current;
    if (!body) return null;
    const box = scroller?.current?.getBoundingClientRect();
    const viewTop = box ? box.top : 0;
    const viewBottom = box ? box.bottom : viewportHeight();
    const bodyTop = body.getBoundingClientRect().top;
    return { top: viewTop - bodyTop, bottom: viewBottom - bodyTop };
  }, [scroller]);

  const update = useCallback(() => {
    const view = visible();
    if (!view) return;
    setRange((current) => {
      // Re-render only when the rendered rows no longer cover the view with half the margin.
      const needed = rowsAt(view.top - overscan / 2, view.bottom + overscan / 2);
      if (needed.start >= current.start && needed.end <= current.end) return current;
      return rowsAt(view.top - overscan, view.bottom + overscan);
    });
  }, [visible, rowsAt, overscan]);

  useEffect(() => {
    if (!windowed) return;
    const target: HTMLElement | Window = scroller?.current ?? window;
    update();
    target.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      target.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [windowed, scroller, update]);

  useEffect(() => {
    if (!windowed) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      const key = event.key.toLowerCase();
      if (key === 'f3' || ((event.ctrlKey || event.metaKey) && (key === 'f' || key === 'g'))) setAll(true);
    };
    // The print snapshot is taken right after beforeprint: the rows must be in the DOM by then.
    const beforePrint = () => flushSync(() => setPrinting(true));
    const afterPrint = () => setPrinting(false);
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('beforeprint', beforePrint);
    window.addEventListener('afterprint', afterPrint);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('beforeprint', beforePrint);
      window.removeEventListener('afterprint', afterPrint);
    };
  }, [windowed]);

  const whole = !windowed || all || printing;
  const start = Math.min(range.start, count);
  const end = Math.min(Math.max(range.end, start), count);

  // Measure the rendered rows after each commit, and correct the window once they are measured.
  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (!body || whole) return;
    let changed = false;
    for (const row of body.querySelectorAll<HTMLTableRowElement>(':scope > tr[data-row-index]')) {
      const i = Number(row.dataset.rowIndex);
      const h = row.getBoundingClientRect().height;
      if (h > 0 && Math.abs((heights.current[i] ?? 0) - h) > 0.5) {
        heights.current[i] = h;
        changed = true;
      }
    }
    if (changed) update();
  });

  const slots = useMemo((): RowSlot[] => {
    const list: RowSlot[] = [];
    const rows = (from: number, to: number) => {
      for (let i = from; i < to; i++) list.push({ kind: 'row', index: i });
    };
    if (whole) {
      rows(0, count);
      return list;
    }
    let spacerFrom = 0;
    const spacer = (to: number) => {
      if (to <= spacerFrom) return;
      let height = 0;
      for (let i = spacerFrom; i < to; i++) height += heightOf(i);
      list.push({ kind: 'spacer', key: `gap-${spacerFrom}`, height });
      // Striped tables colour rows by nth-child: an even count of spacer rows keeps each row's
      // stripe whatever the first rendered row.
      if ((to - spacerFrom) % 2 === 0)
        list.push({ kind: 'spacer', key: `gap-${spacerFrom}-even`, height: 0 });
    };
    const pinned = focused !== null && (focused < start || focused >= end) ? focused : null;
    if (pinned !== null && pinned < start) {
      spacer(pinned);
      rows(pinned, pinned + 1);
      spacerFrom = pinned + 1;
    }
    spacer(start);
    rows(start, end);
    spacerFrom = end;
    if (pinned !== null && pinned >= end) {
      spacer(pinned);
      rows(pinned, pinned + 1);
      spacerFrom = pinned + 1;
    }
    spacer(count);
    return list;
    // heightOf reads the measured heights as of this render.
  }, [whole, count, start, end, focused, heightOf]);

  /** Props for the <tbody>: the ref, and focus tracking. */
  const bodyProps = {
    ref: bodyRef,
    onFocus: (event: { target: EventTarget }) => setFocused(rowIndexOf(event.target)),
    onBlur: (event: { relatedTarget: EventTarget | null }) => {
      if (!(event.relatedTarget instanceof Node) || !bodyRef.current?.contains(event.relatedTarget))
        setFocused(null);
    },
    onKeyDown: (event: KeyboardEvent<HTMLTableSectionElement>) => {
      if (event.key !== 'Tab' || whole) return;
      const index = rowIndexOf(event.target);
      if (index === null) return;
      // Before the browser moves focus: the rows around the focused one, so it lands on the next.
      flushSync(() =>
        setRange((current) => {
          const near = { start: Math.max(0, index - TAB_REACH), end: Math.min(count, index + TAB_REACH) };
          if (index < current.start || index >= current.end) return near;
          return { start: Math.min(current.start, near.start), end: Math.max(current.end, near.end) };
        }),
      );
    },
  };

  return { slots, bodyProps, windowed };
}

function rowIndexOf(target: EventTarget | null): number | null {
  const row = target instanceof Element ? target.closest<HTMLElement>('tr[data-row-index]') : null;
  return row ? Number(row.dataset.rowIndex) : null;
}

function viewportHeight(): number {
  return typeof window === 'undefined' ? 800 : window.innerHeight;
}
