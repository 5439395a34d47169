import type { Camel, WireUser } from '@kosh/contract';

/** The signed-in user as the screens read it (camelCase, spec section 3). */
export type User = Camel<WireUser>;

export function displayName(user: User | null): string {
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ').trim();
  return name || 'User';
}

export function initialOf(user: User | null): string {
  return user?.firstName?.trim().charAt(0).toUpperCase() || 'U';
}

/** Pictures are served from {host}/uploads/profile-pictures/{file}; a full path is used as given. */
export function profilePictureUrl(file: string): string {
  return file.includes('/') ? file : `/uploads/profile-pictures/${encodeURIComponent(file)}`;
}
