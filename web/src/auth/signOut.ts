import type { AppDispatch, RootState } from '../app/store';
import { sessionEnded } from './sessionActions';

/**
 * Logout: the session ends here at once, and the server is asked to end it too
 * (POST /api/auth/logout), so that the token stops working wherever it was copied. The call is
 * sent with the token it ends and outlives the page (`keepalive`); should it fail (offline, or the
 * session already over) the user is signed out here all the same, and nothing is said.
 */
export const signOut = () => (dispatch: AppDispatch, getState: () => RootState) => {
  const { token } = getState().session;
  dispatch(sessionEnded());
  if (!token) return;
  fetch('/api/auth/logout', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    keepalive: true,
  }).catch(() => undefined);
};
