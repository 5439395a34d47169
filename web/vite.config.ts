import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { purgeCss } from './build/cssPurge';
import { collectUsedClasses } from './build/usedClasses';

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

/** Blueprint's icon-name tables give way to web/src/app/iconNames.ts (see there why). */
function lightIconNames(): Plugin {
  const replacement = fileURLToPath(new URL('./src/app/iconNames.ts', import.meta.url));
  return {
    name: 'kosh-light-icon-names',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === './iconNames' && importer?.includes('@blueprintjs/icons/lib/esm/')) return replacement;
      return null;
    },
  };
}

/**
 * index.html's first script, src/app/boot.ts, is built as an entry of its own and put first in
 * the page, rather than merged into the app's entry: merged, it would run only after React,
 * Blueprint and the store evaluated (100–150 ms later on a 2-core machine), which it is there
 * to overtake (see boot.ts). The dev server serves both scripts as written.
 */
function bootScriptFirst(): Plugin[] {
  const bootTag = /\s*<!--[^>]*-->\s*<script type="module" src="\/src\/app\/boot\.ts"><\/script>/;
  return [
    {
      name: 'kosh-boot-entry',
      apply: 'build',
      config: () => ({
        build: {
          rollupOptions: {
            input: {
              index: fileURLToPath(new URL('./index.html', import.meta.url)),
              boot: fileURLToPath(new URL('./src/app/boot.ts', import.meta.url)),
            },
          },
        },
      }),
      transformIndexHtml: {
        order: 'pre',
        handler(html) {
          if (!bootTag.test(html)) throw new Error('index.html no longer loads /src/app/boot.ts first');
          return html.replace(bootTag, '');
        },
      },
    },
    {
      name: 'kosh-boot-first',
      apply: 'build',
      transformIndexHtml: {
        order: 'post',
        handler(_html, ctx) {
          const boot = Object.values(ctx.bundle ?? {}).find(
            (chunk) => chunk.type === 'chunk' && chunk.isEntry && chunk.name === 'boot',
          );
          if (!boot) throw new Error('the boot entry was not built');
          return [
            {
              tag: 'script',
              attrs: { type: 'module', crossorigin: true, src: `/${boot.fileName}` },
              injectTo: 'head-prepend',
            },
          ];
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
    lightIconNames(),
    bootScriptFirst(),
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
  build: { outDir: 'dist', emptyOutDir: true },
});
