// The prebuilt workflow bundle: what production images ship (deploy/build-workflow-bundle.ts) and what the fault suite
// hands its workers (FOLIO_WORKFLOW_BUNDLE), so a worker starts without webpack.
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { TRACING_WORKFLOW_INTERCEPTORS } from '../worker/tracing.js';

export async function workflowBundleCode(): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: fileURLToPath(new URL('../workflows/index.ts', import.meta.url)),
    // Folio's own (worker/main.ts names them when it bundles from source) and OpenTelemetry's, which act only in a
    // workflow whose start carried a trace context and export through a sink the worker always provides (a no-op
    // while tracing is off).
    workflowInterceptorModules: [
      fileURLToPath(new URL('../workflows/interceptors.ts', import.meta.url)),
      TRACING_WORKFLOW_INTERCEPTORS,
    ],
  });
  return code;
}
