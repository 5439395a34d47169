import { BlueprintProvider } from '@blueprintjs/core';
import { useEffect } from 'react';
import { Provider } from 'react-redux';
import { useGetProfileQuery } from '../auth/authApi';
import { useAppearance } from '../settings/appearance';
import { AppRoutes, preloadRoute } from './routes';
import { type AppStore, useAppDispatch, useAppSelector } from './store';

/** Turns a stored token into the signed-in user once, at start-up (spec section 4). */
function useSessionStart(): void {
  const status = useAppSelector((state) => state.session.status);
  useGetProfileQuery(undefined, { skip: status !== 'loading' });
  // Meanwhile the screen asked for loads its code and data, so neither waits for the answer.
  const dispatch = useAppDispatch();
  const checking = status === 'loading';
  useEffect(() => {
    if (checking) preloadRoute(window.location.pathname, dispatch);
  }, [checking, dispatch]);
}

function Shell() {
  useSessionStart();
  useAppearance();
  return <AppRoutes />;
}

export function App({ store }: { store: AppStore }) {
  return (
    <Provider store={store}>
      <BlueprintProvider>
        <Shell />
      </BlueprintProvider>
    </Provider>
  );
}
