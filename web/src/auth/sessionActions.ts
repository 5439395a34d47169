import { createAction } from '@reduxjs/toolkit';
import type { User } from './user';

/** Kept apart from the slice so the API layer can end a session without importing the auth endpoints. */
export const signedIn = createAction<{ token: string; user: User; remember: boolean }>('session/signedIn');
export const sessionEnded = createAction('session/ended');
