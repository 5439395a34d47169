import { useSyncExternalStore } from 'react';

/** The phone breakpoint of the layout (app.css: `@media (max-width: 520px)`). */
const NARROW = '(max-width: 520px)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** True on a phone-sized viewport; follows rotation and resizing. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(NARROW).matches);
}
