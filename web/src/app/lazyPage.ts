import { type ComponentType, createElement, useEffect, useState } from 'react';
import { CentredSpinner } from './guards';

/** A component whose code loads on demand, and can be asked to start loading early. */
export type LazyComponent<P extends object> = ComponentType<P> & { preload(): Promise<unknown> };

/**
 * A component loaded on demand, with `preload()`, that never suspends: until its code is there it
 * shows the spinner in its place, and then re-renders as an ordinary update. Suspended (as with
 * React.lazy), its reveal would be a Suspense retry, which React holds back until 300 ms after
 * the last fallback showed, and with it everything that render brings (issue 33: on a cold
 * start the dashboard's data waited ~230 ms for that timer after everything had arrived). A
 * failed load is thrown at the next render, for the error boundary.
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
  function Lazy(props: P) {
    const [, setReady] = useState(false);
    const [failure, setFailure] = useState<{ error: unknown } | null>(null);
    useEffect(() => {
      if (loaded) return;
      let current = true;
      preload().then(
        () => current && setReady(true),
        (error: unknown) => current && setFailure({ error }),
      );
      return () => {
        current = false;
      };
    }, []);
    if (failure) throw failure.error;
    return loaded ? createElement(loaded, props) : createElement(CentredSpinner);
  }
  return Object.assign(Lazy, { preload });
}

/** A module's named page export as its own chunk (one per route). */
export function lazyPage<M, K extends keyof M>(load: () => Promise<M>, name: K): LazyComponent<object> {
  return lazyComponent(async () => (await load())[name] as ComponentType);
}
