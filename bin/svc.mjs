#!/usr/bin/env node
// The `svc` command. The service needs Node 24 (it runs TypeScript directly); npm scripts and
// npx put the project's Node 24 first on PATH, and a direct call on an older Node re-runs
// itself with that binary.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  const node24 = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(node24)) {
    process.stderr.write('svc needs Node 24: run `npm ci` in the repository first\n');
    process.exit(1);
  }
  const child = spawn(node24, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  // Pass termination signals on, so `svc serve` under this wrapper still shuts down gracefully
  // (a blocking spawnSync would die on SIGTERM and orphan the server).
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('error', (err) => {
    process.stderr.write(`svc: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
} else {
  await import(pathToFileURL(join(root, 'src', 'cli.ts')).href);
}
