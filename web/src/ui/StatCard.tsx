import { Card, Icon, type IconName, Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import './money-screens.css';

type Props = {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  icon: IconName;
  intent?: Intent;
};

/** A labelled figure: the cards of the dashboard, transaction book, ledger and schedule. */
export function StatCard({ label, value, detail, icon, intent = Intent.NONE }: Props) {
  return (
    <Card className={`kosh-stat-card kosh-stat-${intent}`} aria-label={label} role="group">
      <div className="kosh-stat-text">
        <div className="kosh-stat-label">{label}</div>
        <div className="kosh-stat-value">{value}</div>
        {detail ? <div className="kosh-stat-detail">{detail}</div> : null}
      </div>
      <Icon icon={icon} size={24} className="kosh-stat-icon" aria-hidden />
    </Card>
  );
}

export function StatGrid({ children }: { children: ReactNode }) {
  return <div className="kosh-stat-grid">{children}</div>;
}
