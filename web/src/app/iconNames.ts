/**
 * Stands in for `@blueprintjs/icons/lib/esm/iconNames.js` (see vite.config.ts), which builds its
 * name tables from the enum of every 16 px icon (68 KB of source, ~8 KB gzipped on every screen,
 * the sign-in page too) only so that Blueprint can turn `IconNames.CARET_DOWN` into "caret-down"
 * and ask whether a string names an icon. Both are a spelling rule. An unknown name reaches the
 * loader in icons.ts, whose fetch answers 404 and draws nothing: what Blueprint did for it.
 */
const ICON_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** `CARET_DOWN` and `CaretDown` → "caret-down". */
export function iconNameOf(key: string): string {
  return key
    .replace(/_/g, '-')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase();
}

export const IconNames: Readonly<Record<string, string>> = new Proxy(
  {},
  { get: (_, key) => (typeof key === 'string' ? iconNameOf(key) : undefined) },
);

export const IconNamesSet: Pick<ReadonlySet<string>, 'has'> = {
  has: (name: string) => ICON_NAME.test(name),
};
