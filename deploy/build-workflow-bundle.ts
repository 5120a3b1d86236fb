// Prebuilds the workflow bundle for production images, so workers start without webpack.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';

const { code } = await bundleWorkflowCode({
  workflowsPath: fileURLToPath(new URL('../workflows/index.ts', import.meta.url)),
  // The same interceptors worker/main.ts names when it bundles from source.
  workflowInterceptorModules: [fileURLToPath(new URL('../workflows/interceptors.ts', import.meta.url))],
});
const target = fileURLToPath(new URL('../dist/workflow-bundle.js', import.meta.url));
writeFileSync(target, code);
process.stdout.write(`wrote ${target}\n`);
