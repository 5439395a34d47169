import { BlueprintProvider } from '@blueprintjs/core';
import { Provider } from 'react-redux';
import { useGetProfileQuery } from '../auth/authApi';
import { useAppearance } from '../settings/appearance';
import { AppRoutes } from './routes';
import { type AppStore, useAppSelector } from './store';

/** Turns a stored token into the signed-in user once, at start-up (spec section 4). */
function useSessionStart(): void {
  const status = useAppSelector((state) => state.session.status);
  useGetProfileQuery(undefined, { skip: status !== 'loading' });
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
