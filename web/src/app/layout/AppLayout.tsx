import type { ReactNode } from 'react';
import { AuditBanner } from '../../audit/AuditBanner';
import { AppNavbar } from './AppNavbar';

/** The frame of every signed-in screen. */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <div className="kosh-app">
      <AppNavbar />
      <main className="kosh-main" id="main">
        <AuditBanner />
        {children}
      </main>
    </div>
  );
}
