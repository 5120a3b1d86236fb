// Writes the editor page's script (api/editor-app/assets.ts) into dist/api/editor-app/assets/editor.js for production
// images and `npm run build`: a built server serves that file and needs no esbuild (a development dependency).
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleEditorScript } from '../api/editor-app/assets.js';

const folder = new URL('../dist/api/editor-app/assets/', import.meta.url);
mkdirSync(folder, { recursive: true });
const target = fileURLToPath(new URL('editor.js', folder));
writeFileSync(target, await bundleEditorScript());
process.stdout.write(`wrote ${target}\n`);
