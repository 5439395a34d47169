import { type ComponentType, createElement, lazy } from 'react';

/** A component whose code loads on demand, and can be asked to start loading early. */
export type LazyComponent<P extends object> = ComponentType<P> & { preload(): Promise<unknown> };

/**
 * React.lazy plus `preload()`. Once the code is there the component renders at once instead of
 * suspending: React holds back the reveal of a suspended boundary (up to 300 ms after its
 * fallback showed), so a page preloaded while the session is checked would otherwise still wait.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        loading = undefined; // a failed chunk may be tried again
        throw error;
      },
    );
    return loading;
  };
  const Suspending = lazy(async () => ({ default: await preload() }));
  function Lazy(props: P) {
    return createElement(loaded ?? Suspending, props);
  }
  return Object.assign(Lazy, { preload });
}

/** A module's named page export as its own chunk (one per route). */
export function lazyPage<M, K extends keyof M>(load: () => Promise<M>, name: K): LazyComponent<object> {
  return lazyComponent(async () => (await load())[name] as ComponentType);
}
