import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';

/** Where `vite build` puts the dashboard (web/dashboard/vite.config.ts). */
export const DASHBOARD_DIST = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../web/dashboard/dist',
);

/** The dashboard single-page app at /dashboard: hashed assets, and index.html for every deep link. */
export function dashboardRouter(dist = DASHBOARD_DIST): Router {
  const router = express.Router();
  router.use(
    '/dashboard/assets',
    express.static(path.join(dist, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false }),
  );
  router.get(['/dashboard', '/dashboard/{*rest}'], (_req, res) => {
    const index = path.join(dist, 'index.html');
    if (!existsSync(index)) {
      res.status(503).type('text/plain').send('The dashboard is not built: run `npm run build:dashboard`.\n');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
