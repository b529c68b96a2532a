import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Node resolves `graphql` to its CommonJS build for every package (it has no `exports` map);
  // vite would give the project's own files the ESM build, and graphql refuses a schema made by
  // the other one. One build for all, as in production.
  resolve: { alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve('graphql') }] },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file has its own database, so files run in parallel safely.
    fileParallelism: true,
    reporters: ['default'],
  },
});
