import { createListenerMiddleware, createSlice, isAnyOf } from '@reduxjs/toolkit';
import { api } from '../api/baseApi';
import { setAuditAccount } from '../audit/auditMode';
import { authApi } from './authApi';
import { sessionEnded, signedIn } from './sessionActions';
import { type StoredToken, tokenStorage } from './token';
import type { User } from './user';

/** 'loading' while a stored token is being turned into a user at start-up. */
export type SessionStatus = 'loading' | 'authenticated' | 'anonymous';

export type SessionState = { token: string | null; user: User | null; status: SessionStatus };

export function sessionFromStorage(stored: StoredToken | null): SessionState {
  return stored
    ? { token: stored.token, user: null, status: 'loading' }
    : { token: null, user: null, status: 'anonymous' };
}

const userAnswers = isAnyOf(
  authApi.endpoints.updateProfile.matchFulfilled,
  authApi.endpoints.uploadProfilePicture.matchFulfilled,
  authApi.endpoints.deleteProfilePicture.matchFulfilled,
);

export const sessionSlice = createSlice({
  name: 'session',
  initialState: sessionFromStorage(null),
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(signedIn, (_state, { payload }) => ({
        token: payload.token,
        user: payload.user,
        status: 'authenticated',
      }))
      .addCase(sessionEnded, () => ({ token: null, user: null, status: 'anonymous' }))
      .addMatcher(authApi.endpoints.getProfile.matchFulfilled, (state, { payload }) => {
        if (!state.token) return;
        state.user = payload;
        state.status = 'authenticated';
      })
      .addMatcher(authApi.endpoints.getProfile.matchRejected, (state, action) => {
        // A request skipped by RTK Query's own conditions carries no answer: nothing happened.
        if (action.meta.condition) return;
        if (state.status === 'loading') state.status = 'anonymous';
      })
      .addMatcher(userAnswers, (state, { payload }) => {
        state.user = payload.data.user;
      });
  },
});

/** Keeps the stored token in step with the session and drops cached data of the previous user. */
export const sessionListener = createListenerMiddleware();

sessionListener.startListening({
  actionCreator: signedIn,
  effect: ({ payload }, { dispatch }) => {
    tokenStorage.write({ token: payload.token, remember: payload.remember });
    dispatch(api.util.resetApiState());
  },
});

sessionListener.startListening({
  actionCreator: sessionEnded,
  effect: (_action, { dispatch }) => {
    tokenStorage.clear();
    setAuditAccount(null);
    dispatch(api.util.resetApiState());
  },
});
