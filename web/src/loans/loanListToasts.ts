import type { ToastOptions } from '../api/baseApi';

/** Spec section 2: success toasts on the loan list last 5 s, error toasts 8 s. */
export const LOAN_SUCCESS_TOAST_MS = 5000;
const LOAN_ERROR_TOAST_MS = 8000;
/** Every call of the loan list: its failure toasts (shown by the base query) last 8 s. */
export const LOAN_LIST_TOASTS = { errorToastMs: LOAN_ERROR_TOAST_MS } as const satisfies ToastOptions;
