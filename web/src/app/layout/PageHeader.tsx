import { H1 } from '@blueprintjs/core';
import type { ReactNode } from 'react';

/** A screen's heading, with optional actions on the right. */
export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="kosh-page-header">
      <div>
        <H1 className="kosh-page-title">{title}</H1>
        {subtitle ? <p className="kosh-page-subtitle">{subtitle}</p> : null}
      </div>
      {actions ? <div className="kosh-page-actions">{actions}</div> : null}
    </div>
  );
}
