import { Card, Elevation, H1, Icon } from '@blueprintjs/core';
import type { ReactNode } from 'react';

type Props = { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode };

/** The centred card of the signed-out screens, carrying the brand. */
export function AuthLayout({ title, subtitle, children, footer }: Props) {
  return (
    <main className="kosh-auth">
      <Card className="kosh-auth-card" elevation={Elevation.TWO}>
        <div className="kosh-auth-brand">
          <Icon icon="bank-account" size={24} aria-hidden />
          <span>Kosh</span>
        </div>
        <H1 className="kosh-auth-title">{title}</H1>
        {subtitle ? <p className="kosh-auth-subtitle">{subtitle}</p> : null}
        {children}
        {footer ? <div className="kosh-auth-footer">{footer}</div> : null}
      </Card>
    </main>
  );
}
