import { type ComponentType, lazy } from 'react';

/** React.lazy for a module's named page export, so each route is its own chunk. */
export function lazyPage<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}
