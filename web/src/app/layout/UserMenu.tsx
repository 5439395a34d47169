import { Button, Menu, MenuDivider, MenuItem, PopoverNext, PopupKind } from '@blueprintjs/core';
import { type KeyboardEvent, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { signOut } from '../../auth/signOut';
import { displayName } from '../../auth/user';
import { useAppDispatch, useAppSelector } from '../store';
import { Avatar } from './Avatar';

/** Arrow keys move through a menu's items, wrapping; Home and End go to its ends (WAI-ARIA menu). */
const MOVES: Readonly<Record<string, (at: number, count: number) => number>> = {
  ArrowDown: (at, count) => (at + 1) % count,
  ArrowUp: (at, count) => (at - 1 + count) % count,
  Home: () => 0,
  End: (_at, count) => count - 1,
};

/**
 * Greeting, avatar and the menu with Profile, Change Password, Settings and Logout. A menu button:
 * Enter or Space opens it on its first item, the arrow keys move through the items, Escape closes
 * it and puts focus back on the button. The button's name is its visible greeting.
 */
export function UserMenu() {
  const user = useAppSelector((state) => state.session.user);
  const dispatch = useAppDispatch();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLUListElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      button.current?.focus();
      return;
    }
    const move = MOVES[event.key];
    const list = items();
    if (!move || list.length === 0) return;
    event.preventDefault();
    const at = list.indexOf(document.activeElement as HTMLElement);
    list[move(at < 0 ? -1 : at, list.length)]?.focus();
  };

  const go = (path: string) => () => {
    setOpen(false);
    navigate(path);
  };
  const logout = () => {
    setOpen(false);
    dispatch(signOut());
    navigate('/login', { replace: true });
  };

  return (
    <PopoverNext
      isOpen={open}
      onInteraction={setOpen}
      placement="bottom-end"
      popupKind={PopupKind.MENU}
      arrow={false}
      autoFocus={false}
      onOpened={() => items()[0]?.focus()}
      content={
        <Menu aria-label="User menu" ulRef={menu} onKeyDown={onMenuKey}>
          <MenuItem icon="user" text="Profile" onClick={go('/profile')} />
          <MenuItem icon="key" text="Change Password" onClick={go('/change-password')} />
          <MenuItem icon="cog" text="Settings" onClick={go('/settings')} />
          <MenuItem icon="eye-open" text="Shared with you" onClick={go('/audits')} />
          <MenuDivider />
          <MenuItem icon="log-out" text="Logout" intent="danger" onClick={logout} />
        </Menu>
      }
    >
      <Button ref={button} variant="minimal" className="kosh-user-button" endIcon="caret-down">
        <span className="kosh-user-button-content">
          <Avatar user={user} />
          <span className="kosh-greeting">Hello, {displayName(user)}</span>
        </span>
      </Button>
    </PopoverNext>
  );
}
