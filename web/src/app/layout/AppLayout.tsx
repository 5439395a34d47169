import type { ReactNode } from 'react';
import { AuditBanner } from '../../audit/AuditBanner';
import { AppNavbar } from './AppNavbar';

/** The frame of every signed-in screen. */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <div className="kosh-app">
      {/* The first stop of Tab: past the navigation to the screen itself. */}
      <a className="kosh-skip-link" href="#main">
        Skip to main content
      </a>
      <AppNavbar />
      <main className="kosh-main" id="main" tabIndex={-1}>
        <AuditBanner />
        {children}
      </main>
    </div>
  );
}
