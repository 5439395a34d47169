import type { ReactNode } from 'react';

/**
 * A table that may scroll sideways (or, for the schedule, down). It can take focus so keyboard
 * users can scroll it too (axe: scrollable-region-focusable).
 */
export function TableScroll({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section className={`kosh-table-wrap ${className ?? ''}`} tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}
