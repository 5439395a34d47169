import { Button, Menu, MenuDivider, MenuItem, Popover } from '@blueprintjs/core';
import { useLocation } from 'wouter';
import { signOut } from '../../auth/signOut';
import { displayName } from '../../auth/user';
import { useAppDispatch, useAppSelector } from '../store';
import { Avatar } from './Avatar';

/** Greeting, avatar and the menu with Profile, Change Password, Settings and Logout. */
export function UserMenu() {
  const user = useAppSelector((state) => state.session.user);
  const dispatch = useAppDispatch();
  const [, navigate] = useLocation();

  const logout = () => {
    dispatch(signOut());
    navigate('/login', { replace: true });
  };

  return (
    <Popover
      placement="bottom-end"
      content={
        <Menu aria-label="User menu">
          <MenuItem icon="user" text="Profile" onClick={() => navigate('/profile')} />
          <MenuItem icon="key" text="Change Password" onClick={() => navigate('/change-password')} />
          <MenuItem icon="cog" text="Settings" onClick={() => navigate('/settings')} />
          <MenuItem icon="eye-open" text="Shared with you" onClick={() => navigate('/audits')} />
          <MenuDivider />
          <MenuItem icon="log-out" text="Logout" intent="danger" onClick={logout} />
        </Menu>
      }
    >
      <Button variant="minimal" className="kosh-user-button" endIcon="caret-down" aria-label="Open user menu">
        <span className="kosh-user-button-content">
          <Avatar user={user} />
          <span className="kosh-greeting">Hello, {displayName(user)}</span>
        </span>
      </Button>
    </Popover>
  );
}
