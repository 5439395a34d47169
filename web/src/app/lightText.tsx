import { Classes } from '@blueprintjs/core/lib/esm/common';
import { DISPLAYNAME_PREFIX } from '@blueprintjs/core/lib/esm/common/props';
import type { TextProps } from '@blueprintjs/core/lib/esm/components/text/text';
import { createElement, forwardRef, type MouseEvent } from 'react';

/**
 * Stands in for Blueprint's `Text` (`@blueprintjs/core/lib/esm/components/text/text.js`, see
 * vite.config.ts), which every Button with text, Tag and MenuItem renders. Blueprint's measures
 * itself in a layout effect on mount: it reads `scrollWidth` (forcing the page's layout before the
 * browser's own) and stores its text content in state (a second render of every button, in the
 * commit, before the first paint). On a cold start of the transaction book that was 60 ms of the
 * main thread (issue 33, bench:web's profile). The only thing it measured for is the title of
 * an ellipsized text, which shows the whole text on hover when it is cut: this sets it when the
 * pointer enters, from the same measurement. Same props, same markup.
 */
export const Text = forwardRef<HTMLElement, TextProps>(
  ({ children, tagName = 'div', title, className, ellipsize = false, onMouseEnter, ...htmlProps }, ref) => {
    const titleOnHover =
      ellipsize && title === undefined
        ? (event: MouseEvent<HTMLElement>) => {
            const element = event.currentTarget;
            if (element.scrollWidth > element.clientWidth) element.title = element.textContent ?? '';
            else element.removeAttribute('title');
            onMouseEnter?.(event);
          }
        : onMouseEnter;
    return createElement(
      tagName,
      {
        ...htmlProps,
        className:
          [ellipsize && Classes.TEXT_OVERFLOW_ELLIPSIS, className].filter(Boolean).join(' ') || undefined,
        ref,
        title,
        onMouseEnter: titleOnHover,
      },
      children,
    );
  },
);
Text.displayName = `${DISPLAYNAME_PREFIX}.Text`;
