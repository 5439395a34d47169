import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiOrigin = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // The workspace root holds an older React that some libraries would otherwise pick up.
    dedupe: ['react', 'react-dom'],
    alias: [{ find: /^@kosh\/domain/, replacement: fileURLToPath(new URL('../domain/src', import.meta.url)) }],
  },
  server: {
    proxy: { '/api': apiOrigin, '/uploads': apiOrigin, '/dev': apiOrigin },
  },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 900 },
});
