import { Intent, OverlayToaster, Position, type Toaster } from '@blueprintjs/core';

/** Spec section 2: toasts top-right, closing after 5000 ms, at most 3 at once. */
export const TOAST_TIMEOUT_MS = 5000;

let toaster: Promise<Toaster> | undefined;

function sharedToaster(): Promise<Toaster> {
  toaster ??= OverlayToaster.create({
    position: Position.TOP_RIGHT,
    maxToasts: 3,
    className: 'kosh-toaster',
  });
  return toaster;
}

type ToastKind = 'success' | 'danger' | 'warning' | 'primary';

const icons = {
  success: 'tick-circle',
  danger: 'error',
  warning: 'warning-sign',
  primary: 'info-sign',
} as const;
const intents = {
  success: Intent.SUCCESS,
  danger: Intent.DANGER,
  warning: Intent.WARNING,
  primary: Intent.PRIMARY,
} as const;

/**
 * One toast per text: the same message while it still shows (a page's two calls failing alike,
 * a prefetch and its query) refreshes that toast instead of stacking a copy.
 */
export function showToast(message: string, kind: ToastKind = 'primary', timeout = TOAST_TIMEOUT_MS): void {
  void sharedToaster().then((t) =>
    t.show({ message, intent: intents[kind], icon: icons[kind], timeout }, `${kind}:${message}`),
  );
}

export const toast = {
  success: (message: string, timeout?: number) => showToast(message, 'success', timeout),
  error: (message: string, timeout?: number) => showToast(message, 'danger', timeout),
  warning: (message: string, timeout?: number) => showToast(message, 'warning', timeout),
  info: (message: string, timeout?: number) => showToast(message, 'primary', timeout),
};
