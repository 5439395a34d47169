import { type IconPaths, IconSize, Icons } from '@blueprintjs/icons';

/**
 * Blueprint's default loader fetches every icon of a size in one ~100 KB (gzip) chunk on the
 * first icon shown. Each icon's paths are published as a small JSON file instead (see the
 * icon plugin in vite.config.ts), so a screen downloads only the icons it shows.
 */
export function loadIconsOneByOne(): void {
  Icons.setLoaderOptions({
    loader: async (name, size): Promise<IconPaths> => {
      const pixels = size < IconSize.LARGE ? 16 : 20;
      try {
        const response = await fetch(`/icons/${pixels}/${name}.json`);
        return response.ok ? ((await response.json()) as IconPaths) : [];
      } catch {
        // An icon that cannot be fetched renders empty rather than breaking the screen.
        return [];
      }
    },
  });
}
