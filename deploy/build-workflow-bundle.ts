// Prebuilds the workflow bundle for production images, so workers start without webpack.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { OTEL_WORKFLOW_INTERCEPTORS } from '../worker/tracing.js';

const { code } = await bundleWorkflowCode({
  workflowsPath: fileURLToPath(new URL('../workflows/index.ts', import.meta.url)),
  // Folio's own (worker/main.ts names them when it bundles from source) and OpenTelemetry's, which export through a sink
  // the worker always provides (a no-op while tracing is off).
  workflowInterceptorModules: [fileURLToPath(new URL('../workflows/interceptors.ts', import.meta.url)), OTEL_WORKFLOW_INTERCEPTORS],
});
const target = fileURLToPath(new URL('../dist/workflow-bundle.js', import.meta.url));
writeFileSync(target, code);
process.stdout.write(`wrote ${target}\n`);
