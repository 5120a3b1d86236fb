// Writes dist/cli-bundle/ (deploy/cli-bundle.ts) for production images and `npm run build`.
import { fileURLToPath } from 'node:url';
import { buildCliBundle } from './cli-bundle.js';

const target = fileURLToPath(new URL('../dist/cli-bundle', import.meta.url));
await buildCliBundle(target);
process.stdout.write(`wrote ${target}\n`);
