import { Classes } from '@blueprintjs/core';
import { useEffect } from 'react';
import { useAppSelector } from '../app/store';

/** Compact tables for every HTMLTable on the page: pass as its `compact` prop. */
export function useCompactView(): boolean {
  return useAppSelector((state) => state.settings.appearance.compactView);
}

/**
 * Applies the Appearance settings to <body>, so Blueprint's dark theme also reaches portals
 * (dialogs, popovers, toasts) that render outside the app's root.
 */
export function useAppearance(): void {
  const { darkMode, compactView } = useAppSelector((state) => state.settings.appearance);
  useEffect(() => {
    document.body.classList.toggle(Classes.DARK, darkMode);
    document.documentElement.style.colorScheme = darkMode ? 'dark' : 'light';
  }, [darkMode]);
  useEffect(() => {
    document.body.classList.toggle('kosh-compact', compactView);
  }, [compactView]);
}
