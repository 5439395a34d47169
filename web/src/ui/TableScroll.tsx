import type { ReactNode, Ref } from 'react';

/**
 * A table that may scroll sideways (or, for the schedule, down). It can take focus so keyboard
 * users can scroll it too (axe: scrollable-region-focusable).
 */
export function TableScroll({
  label,
  className,
  scrollRef,
  children,
}: {
  label: string;
  className?: string;
  /** The box itself, for a table that renders its rows in windows of it. */
  scrollRef?: Ref<HTMLElement>;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section ref={scrollRef} className={`kosh-table-wrap ${className ?? ''}`} tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}
