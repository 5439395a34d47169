import { useEffect, useState } from 'react';

/**
 * For a dialog mounted only while open: gives focus back, when it unmounts, to whatever had it
 * when the dialog first rendered (the button that opened it). Blueprint returns focus only when
 * `isOpen` turns false, which such a dialog never sees. The opener is read during the first
 * render, before the dialog's autofocus moves focus.
 */
export function useReturnFocus(): void {
  const [opener] = useState(() => document.activeElement);
  useEffect(
    () => () => {
      if (!(opener instanceof HTMLElement)) return;
      // After the overlay has gone, so nothing in it takes focus back.
      requestAnimationFrame(() => {
        if (opener.isConnected) opener.focus();
      });
    },
    [opener],
  );
}
