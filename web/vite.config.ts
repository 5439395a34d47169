import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';
import { purgeCss } from './build/cssPurge';
import { collectUsedClasses } from './build/usedClasses';
import { SCREEN_CHUNKS_ID, type ScreenChunks, screenPaths } from './src/app/screenPaths';

const apiOrigin = 'http://127.0.0.1:3000';

/**
 * Blueprint's default icon loader downloads every icon of a size (~100 KB gzip each for 16 px
 * and 20 px) on the first icon shown. This plugin publishes each icon's paths as its own small
 * JSON file under /icons/{16|20}/{name}.json, which web/src/app/icons.ts fetches on demand.
 */
function blueprintIconPaths(): Plugin {
  const generated = join(
    dirname(createRequire(import.meta.url).resolve('@blueprintjs/icons/package.json')),
    'lib/esm/generated',
  );
  const readPaths = (pixels: string, name: string): string => {
    const source = readFileSync(join(generated, `${pixels}px/paths/${name}.js`), 'utf8');
    // Each file is `export default [...]` (an empty list for "blank"), followed by a source-map comment.
    return JSON.stringify(JSON.parse(source.slice(source.indexOf('['), source.lastIndexOf(']') + 1)));
  };
  return {
    name: 'kosh-blueprint-icon-paths',
    configureServer(server) {
      server.middlewares.use('/icons', (req, res, next) => {
        const match = /^\/(16|20)\/([a-z0-9-]+)\.json$/.exec(req.url ?? '');
        if (!match) return next();
        try {
          res.setHeader('Content-Type', 'application/json');
          res.end(readPaths(match[1] as string, match[2] as string));
        } catch {
          next();
        }
      });
    },
    generateBundle() {
      for (const pixels of ['16', '20']) {
        for (const file of readdirSync(join(generated, `${pixels}px/paths`))) {
          if (!file.endsWith('.js') || file === 'index.js') continue;
          const name = file.slice(0, -3);
          this.emitFile({
            type: 'asset',
            fileName: `icons/${pixels}/${name}.json`,
            source: readPaths(pixels, name),
          });
        }
      }
    },
  };
}

/**
 * Blueprint modules that give way to lighter ones of ours (each file says why): the icon-name
 * tables (src/app/iconNames.ts) and the Text in every Button, Tag and MenuItem (src/app/lightText.tsx).
 */
function lighterBlueprintModules(): Plugin {
  const ours = (file: string) => fileURLToPath(new URL(file, import.meta.url));
  const swaps = [
    {
      sources: ['./iconNames'],
      importer: /[\\/]@blueprintjs[\\/]icons[\\/]lib[\\/]esm[\\/]/,
      by: ours('./src/app/iconNames.ts'),
    },
    {
      sources: ['../text/text', './text/text'],
      importer: /[\\/]@blueprintjs[\\/]core[\\/]lib[\\/]esm[\\/]components[\\/]/,
      by: ours('./src/app/lightText.tsx'),
    },
  ];
  return {
    name: 'kosh-lighter-blueprint-modules',
    enforce: 'pre',
    resolveId(source, importer) {
      const swap = swaps.find((s) => s.sources.includes(source) && s.importer.test(importer ?? ''));
      return swap ? swap.by : null;
    },
  };
}

/**
 * index.html's first script, src/app/boot.ts, inlined at the top of the built page (issue 33):
 * it runs as the HTML arrives, so a signed-in cold start's first data and its screen's chunks are
 * asked for before the app's scripts and stylesheet (which the server is then busy sending, and
 * which a module script would wait for). It is built apart, as one self-contained script, and
 * beside it goes a table of each screen's chunks (SCREEN_CHUNKS_ID, ScreenChunks). The server
 * allows this one inline script by its hash (command-api's static plugin). The dev server serves
 * boot.ts as written, as a module, without the table.
 */
function bootInline(): Plugin[] {
  const bootTag = /\s*<!--[^>]*-->\s*<script type="module" src="\/src\/app\/boot\.ts"><\/script>/;
  const appDir = fileURLToPath(new URL('./src/app/', import.meta.url));
  let bootCode: Promise<string> | undefined;
  const buildBoot = async () => {
    const built = await build({
      configFile: false,
      logLevel: 'warn',
      build: {
        write: false,
        minify: true,
        lib: { entry: join(appDir, 'boot.ts'), formats: ['iife'], name: 'koshBoot' },
      },
    });
    const outputs = (Array.isArray(built) ? built : [built]).flatMap((b) => ('output' in b ? b.output : []));
    const chunks = outputs.filter((o) => o.type === 'chunk');
    if (chunks.length !== 1) throw new Error(`boot.ts built as ${chunks.length} scripts, not one`);
    const code = (chunks[0] as { code: string }).code.trim();
    if (/\bimport\s*\(|<\/script/i.test(code)) throw new Error('boot.ts must not import a chunk');
    return code;
  };
  /** Each screen's page module, as screens.ts imports it, and the frame's. */
  const pageModules = () => {
    const source = readFileSync(join(appDir, 'screens.ts'), 'utf8');
    const pages = new Map<string, string>();
    for (const [, path, spec] of source.matchAll(/'(\/[^']*)':\s*page\(\(\)\s*=>\s*import\('([^']+)'\)/g))
      pages.set(path as string, resolve(appDir, spec as string));
    const missing = screenPaths.filter((s) => !pages.has(s.path)).map((s) => s.path);
    if (missing.length > 0 || pages.size !== screenPaths.length)
      throw new Error(`kosh-boot-inline: screens.ts's page lines do not match screenPaths (${missing})`);
    const layout = /loadLayout = async \(\) => \(await import\('([^']+)'\)\)/.exec(source)?.[1];
    if (!layout) throw new Error('kosh-boot-inline: screens.ts has no loadLayout import');
    return { pages, layout: resolve(appDir, layout) };
  };
  return [
    {
      name: 'kosh-boot-inline-source',
      apply: 'build',
      transformIndexHtml: {
        order: 'pre',
        handler(html) {
          if (!bootTag.test(html)) throw new Error('index.html no longer loads /src/app/boot.ts first');
          bootCode = buildBoot();
          return html.replace(bootTag, '');
        },
      },
    },
    {
      name: 'kosh-boot-inline',
      apply: 'build',
      transformIndexHtml: {
        order: 'post',
        async handler(html, ctx) {
          type Chunk = {
            fileName: string;
            imports: string[];
            facadeModuleId: string | null;
            isEntry: boolean;
            viteMetadata?: { importedCss: Set<string> };
          };
          const chunks = Object.values(ctx.bundle ?? {}).filter(
            (c) => c.type === 'chunk',
          ) as unknown as Chunk[];
          const byName = new Map(chunks.map((c) => [c.fileName, c]));
          const closure = (fileName: string, into = new Set<string>()) => {
            if (into.has(fileName)) return into;
            into.add(fileName);
            const chunk = byName.get(fileName);
            for (const css of chunk?.viteMetadata?.importedCss ?? []) into.add(css);
            for (const name of chunk?.imports ?? []) closure(name, into);
            return into;
          };
          const entry = chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith('index.html'));
          if (!entry) throw new Error('kosh-boot-inline: no index.html entry chunk');
          const inPage = closure(entry.fileName);
          const chunkOf = (moduleId: string) => {
            const chunk = chunks.find((c) => c.facadeModuleId?.replace(/\.[jt]sx?$/, '') === moduleId);
            if (!chunk) throw new Error(`kosh-boot-inline: no chunk for ${moduleId}`);
            return chunk.fileName;
          };
          const files: string[] = [];
          const indexes = (moduleId: string) =>
            [...closure(chunkOf(moduleId))]
              .filter((f) => !inPage.has(f))
              .map((f) => {
                if (!files.includes(f)) files.push(f);
                return files.indexOf(f);
              });
          const { pages, layout } = pageModules();
          const table: ScreenChunks = { files, layout: indexes(layout), screens: {} };
          for (const [path, moduleId] of pages) table.screens[path] = indexes(moduleId);
          if (!bootCode) throw new Error('kosh-boot-inline: boot.ts was not built');
          // Right after the charset (which must come in the first 1024 bytes), before any
          // stylesheet: a parser-inserted script waits for the stylesheets above it.
          const charset = '<meta charset="UTF-8" />';
          if (!html.includes(charset)) throw new Error('kosh-boot-inline: index.html has no charset meta');
          const json = JSON.stringify(table).replaceAll('<', '\\u003c');
          return html.replace(
            charset,
            `${charset}\n    <script type="application/json" id="${SCREEN_CHUNKS_ID}">${json}</script>` +
              `\n    <script>${await bootCode}</script>`,
          );
        },
      },
    },
  ];
}

/**
 * Ships only the Blueprint CSS the built JavaScript can use (issue 33): once every chunk is
 * final, each stylesheet the page links (not one a script loads) loses the selectors whose
 * Blueprint classes no chunk can produce, and the custom properties, keyframes and fonts nothing
 * kept refers to (build/cssPurge.ts says how "can produce" is read). The file is renamed after its
 * new content, as the assets are served immutable, and index.html follows.
 */
function purgeBlueprintCss(): Plugin {
  const core = createRequire(import.meta.url)('@blueprintjs/core/package.json') as { version: string };
  const prefix = `bp${core.version.split('.')[0]}-`;
  return {
    name: 'kosh-purge-blueprint-css',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const files = Object.values(bundle);
        const text = (source: string | Uint8Array) =>
          typeof source === 'string' ? source : Buffer.from(source).toString('utf8');
        const chunks = files.flatMap((f) =>
          f.type === 'chunk' ? [{ fileName: f.fileName, code: f.code }] : [],
        );
        const html = files.flatMap((f) => (f.type === 'asset' && f.fileName.endsWith('.html') ? [f] : []));
        const stylesheets = files.flatMap((f) =>
          f.type === 'asset' && f.fileName.endsWith('.css') ? [f] : [],
        );
        const used = collectUsedClasses(
          chunks,
          html.map((h) => text(h.source)),
        );
        for (const sheet of stylesheets) {
          const before = text(sheet.source);
          // A stylesheet a script names keeps its name: renaming it would change that script too.
          if (!before.includes(`.${prefix}`) || chunks.some((c) => c.code.includes(sheet.fileName))) continue;
          const otherCss = stylesheets
            .filter((s) => s !== sheet)
            .map((s) => text(s.source))
            .join('\n');
          const { css } = purgeCss(before, { prefix, used, otherCss });
          if (css === before) continue;
          const hash = createHash('sha256').update(css).digest('base64url').slice(0, 8);
          const fileName = sheet.fileName.replace(/-[\w-]{8}\.css$/, `-${hash}.css`);
          if (fileName === sheet.fileName)
            throw new Error(`kosh-purge-blueprint-css: cannot rename ${sheet.fileName}`);
          delete bundle[sheet.fileName];
          this.emitFile({ type: 'asset', fileName, source: css });
          for (const page of html) page.source = text(page.source).replaceAll(sheet.fileName, fileName);
          this.info(
            `${sheet.fileName} → ${fileName}: ${(before.length / 1024).toFixed(0)} KB → ${(css.length / 1024).toFixed(0)} KB`,
          );
        }
      },
    },
  };
}

/**
 * Each text file of the build over 1 KB also written brotli- and gzip-compressed beside itself
 * (`x.js.br`, `x.js.gz`), at the highest levels, once: the server sends the one the browser
 * accepts (@fastify/static `preCompressed`), so the app's 1.2 MB of JavaScript crosses a phone's
 * network as about 0.35 MB without the server compressing on every request.
 */
function precompressed(): Plugin {
  const TEXT = /\.(js|css|html|svg|json|webmanifest)$/;
  let outDir = '';
  return {
    name: 'kosh-precompressed',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      for (const name of readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
        if (!TEXT.test(name)) continue;
        const file = join(outDir, name);
        const raw = readFileSync(file);
        if (raw.length < 1024) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(raw, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    blueprintIconPaths(),
    lighterBlueprintModules(),
    bootInline(),
    purgeBlueprintCss(),
    precompressed(),
  ],
  resolve: {
    // The workspace root holds an older React that some libraries would otherwise pick up.
    dedupe: ['react', 'react-dom'],
    alias: [
      { find: /^@kosh\/domain/, replacement: fileURLToPath(new URL('../domain/src', import.meta.url)) },
    ],
  },
  server: {
    proxy: { '/api': apiOrigin, '/uploads': apiOrigin, '/dev': apiOrigin },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      // Shared chunks stay apart from the entry: merged into it, every lazy chunk would import the
      // entry, naming its stylesheet in their preload lists (which the CSS trimming then skips).
      experimental: { chunkOptimization: { mergeCommonChunks: false } },
      output: {
        // The shared screen chunks' names list every screen that uses them: 'screens-<hash>'.
        chunkFileNames: (chunk) =>
          chunk.name.startsWith('screens~') ? 'assets/screens-[hash].js' : 'assets/[name]-[hash].js',
        assetFileNames: (asset) =>
          (asset.names[0] ?? '').startsWith('screens~')
            ? 'assets/screens-[hash][extname]'
            : 'assets/[name]-[hash][extname]',
        codeSplitting: {
          groups: [
            // What index.html loads itself, as one script rather than nine (the login route's
            // JavaScript: 13 scripts, 146.8 KB gzip, against 29 and 152.8 KB before).
            {
              name: 'app',
              tags: ['$initial'],
              // Not the entry itself (main.tsx, the page) nor its stylesheets: this chunk would
              // then be the entry, and its trimmed stylesheet named in the lazy chunks' preloads.
              test: (id: string) =>
                !/\.css($|\?)/.test(id) && !/[\\/]src[\\/]main\.tsx$/.test(id) && !id.endsWith('index.html'),
              priority: 2,
            },
            // The app's code and Blueprint's components that screens share, in chunks by which
            // screens use them (parts under 24 KB merged into the nearest): a cold start of a
            // screen asks for 8–11 scripts beyond the page's own, not 15–35 (a browser opens six
            // connections to the origin, the rest queue).
            {
              name: 'screens',
              test: /[\\/]web[\\/]src[\\/]|@blueprintjs[\\/]core[\\/]/,
              minShareCount: 2,
              entriesAware: true,
              entriesAwareMergeThreshold: 24 * 1024,
              priority: 1,
            },
          ],
        },
      },
    },
  },
});
