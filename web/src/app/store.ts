import { configureStore } from '@reduxjs/toolkit';
import { type TypedUseSelectorHook, useDispatch, useSelector } from 'react-redux';
import { api } from '../api/baseApi';
import { sessionFromStorage, sessionListener, sessionSlice } from '../auth/sessionSlice';
import { tokenStorage } from '../auth/token';
import { loadSettings, settingsListener, settingsSlice } from '../settings/settingsSlice';

export function createStore() {
  return configureStore({
    reducer: {
      [api.reducerPath]: api.reducer,
      session: sessionSlice.reducer,
      settings: settingsSlice.reducer,
    },
    preloadedState: { session: sessionFromStorage(tokenStorage.read()), settings: loadSettings() },
    middleware: (getDefault) =>
      getDefault().prepend(sessionListener.middleware, settingsListener.middleware).concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof createStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch: () => AppDispatch = useDispatch;
export const useAppSelector: TypedUseSelectorHook<RootState> = useSelector;
