import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The dashboard, built into web/dashboard/dist and served by the service at /dashboard. Every
 * page is its own chunk (React.lazy), so the first route loads only the shell and that page.
 * Nothing loads from a CDN: fonts, styles and scripts all come from the build.
 */
export default defineConfig({
  root: here,
  base: '/dashboard/',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 700,
    // No inline scripts: the app's Content-Security-Policy forbids them.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
