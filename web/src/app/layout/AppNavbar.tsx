import { Alignment, Button, Classes, Collapse, Icon, Navbar } from '@blueprintjs/core';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { isEntryActive, navigationEntries } from './navigation';
import { UserMenu } from './UserMenu';

function NavigationLinks({ vertical = false, onNavigate }: { vertical?: boolean; onNavigate?: () => void }) {
  const [path] = useLocation();
  return (
    <>
      {navigationEntries.map((entry) => {
        const active = isEntryActive(entry, path);
        const compact = entry.compact && !vertical;
        return (
          <Link
            key={entry.href}
            href={entry.href}
            aria-current={active ? 'page' : undefined}
            title={compact ? entry.label : undefined}
            onClick={onNavigate}
            className={[
              Classes.BUTTON,
              Classes.MINIMAL,
              vertical ? Classes.FILL : '',
              vertical ? Classes.ALIGN_LEFT : '',
              active ? Classes.ACTIVE : '',
              compact ? 'kosh-nav-compact' : '',
            ].join(' ')}
          >
            <Icon icon={entry.icon} />
            <span className={Classes.BUTTON_TEXT}>{entry.label}</span>
          </Link>
        );
      })}
    </>
  );
}

/** Spec section 2: shown only when signed in; collapses into a menu button on small screens. */
export function AppNavbar() {
  const [open, setOpen] = useState(false);
  // The collapsed menu mounts when first opened: a mounted Collapse measures its contents, which
  // forced a layout of the whole page on every signed-in cold start (about 30 ms), menu or not.
  const [everOpened, setEverOpened] = useState(false);

  return (
    <header className="kosh-header">
      <Navbar className="kosh-navbar" aria-label="Main">
        <Navbar.Group align={Alignment.START}>
          <Navbar.Heading>
            <Link href="/dashboard" className="kosh-brand">
              <Icon icon="bank-account" aria-hidden />
              <span>Kosh</span>
            </Link>
          </Navbar.Heading>
          <Navbar.Divider className="kosh-wide-only" />
          <nav className="kosh-nav kosh-wide-only" aria-label="Primary">
            <NavigationLinks />
          </nav>
        </Navbar.Group>
        <Navbar.Group align={Alignment.END}>
          <UserMenu />
          <Button
            className="kosh-narrow-only"
            variant="minimal"
            icon={open ? 'cross' : 'menu'}
            aria-label={open ? 'Close navigation' : 'Open navigation'}
            aria-expanded={open}
            aria-controls={everOpened ? 'kosh-collapsed-nav' : undefined}
            onClick={() => {
              setEverOpened(true);
              setOpen((v) => !v);
            }}
          />
        </Navbar.Group>
      </Navbar>
      {everOpened ? (
        <Collapse isOpen={open} className="kosh-narrow-only">
          <nav id="kosh-collapsed-nav" className="kosh-collapsed-nav" aria-label="Primary">
            <NavigationLinks vertical onNavigate={() => setOpen(false)} />
          </nav>
        </Collapse>
      ) : null}
    </header>
  );
}
