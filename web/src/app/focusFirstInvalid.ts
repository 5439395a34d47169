/**
 * A form that refuses a submission (its own checks, or the server's 422 landing on the fields)
 * takes the person to the first field in error: focus moves there and the browser scrolls it into
 * view, so a long form (a loan) does not leave them at the button wondering what is wrong, and a
 * screen reader reads that field and its message. Focus moves only when it is still where the
 * submission left it (the form's submit button, or nowhere because the busy button was disabled);
 * a person who went on typing elsewhere while the server answered keeps their place.
 */
const INVALID = '[aria-invalid="true"]';
/** How long after a submission a field marked in error still counts as its answer. */
const ANSWER_WINDOW_MS = 30_000;

/**
 * Moves focus to the form's first field in error if focus is where the submission left it: the
 * submit button, the field Enter was pressed in, or nowhere (the busy button was disabled).
 */
function focusIfLeft(form: HTMLFormElement, leftOn: ReadonlySet<Element | null>): boolean {
  const first = form.querySelector<HTMLElement>(INVALID);
  if (!first) return false;
  const active = form.ownerDocument.activeElement;
  if (active === null || active === form.ownerDocument.body || leftOn.has(active)) first.focus();
  return true;
}

export function focusFirstInvalidOnSubmit(target: Window = window): void {
  target.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement)) return;
      const doc = form.ownerDocument;
      const leftOn = new Set([(event as SubmitEvent).submitter, doc.activeElement]);
      // The form's own checks render their messages with this submission's render.
      requestAnimationFrame(() => {
        if (focusIfLeft(form, leftOn)) return;
        // Else the server may answer with fields in error: the first such answer moves focus once,
        // unless the person has typed, clicked or moved focus since (then they have moved on).
        // Focus given back to where the submission left it (a dialog returning it to its submit
        // button once the busy state ends) is not a move.
        const moves = ['input', 'pointerdown', 'focusin'] as const;
        const moved = (event: Event) => {
          if (event.type !== 'focusin' || !leftOn.has(event.target as Element)) stop();
        };
        const stop = () => {
          observer.disconnect();
          clearTimeout(timer);
          for (const move of moves) doc.removeEventListener(move, moved, true);
        };
        const observer = new MutationObserver(() => {
          if (!form.isConnected || focusIfLeft(form, leftOn)) stop();
        });
        const timer = setTimeout(stop, ANSWER_WINDOW_MS);
        observer.observe(form, { subtree: true, attributes: true, attributeFilter: ['aria-invalid'] });
        for (const move of moves) doc.addEventListener(move, moved, true);
      });
    },
    true,
  );
}
