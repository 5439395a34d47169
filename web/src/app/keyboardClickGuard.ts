/**
 * Blueprint's buttons click on the key-up of Enter or Space, wherever its key-down went. A save
 * from a dialog field with Enter closes the dialog and gives focus back to the button that opened
 * it, often before the key is released: the release then "clicked" that button and opened the
 * dialog again. A key-up of Enter or Space reaches a button only when its key-down went to that
 * same element; otherwise it stops here, before React sees it.
 */
const CLICK_KEYS = new Set(['Enter', ' ']);
const CLICKABLE = 'button, [role="button"], a[href], [role="menuitem"], [role="tab"], [role="option"]';

export function guardKeyboardClicks(target: Window = window): void {
  let downOn: EventTarget | null = null;
  target.addEventListener(
    'keydown',
    (event) => {
      if (CLICK_KEYS.has(event.key)) downOn = event.target;
    },
    true,
  );
  target.addEventListener(
    'keyup',
    (event) => {
      if (!CLICK_KEYS.has(event.key)) return;
      const pressedHere = event.target === downOn;
      downOn = null;
      if (pressedHere) return;
      if (event.target instanceof Element && event.target.closest(CLICKABLE)) event.stopPropagation();
    },
    true,
  );
}
