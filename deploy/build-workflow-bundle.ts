// Prebuilds the workflow bundle for production images, so workers start without webpack.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { workflowBundleCode } from './workflow-bundle.js';

const target = fileURLToPath(new URL('../dist/workflow-bundle.js', import.meta.url));
writeFileSync(target, await workflowBundleCode());
process.stdout.write(`wrote ${target}\n`);
