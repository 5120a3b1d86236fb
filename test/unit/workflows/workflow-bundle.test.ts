// What the worker evaluates for every workflow it starts. The SDK runs all workflows in one reused V8 context and keeps
// their module state apart by routing webpack's module cache (`globalThis.__webpack_module_cache__`, which the SDK
// requires of every bundle) to one map while the bundle loads, shared by all, and to a fresh map per workflow after:
// every module a workflow's start imports is evaluated again for each workflow. This evaluates the production bundle
// the same way and checks what an untraced start costs (workflows/tracing-interceptors.ts).
import { createContext, runInContext, Script } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { workflowBundleCode } from '../../../deploy/workflow-bundle.js';

interface Sandbox {
  /** The modules one workflow's start evaluates: its interceptors, then its workflows. */
  startWorkflow(): string[];
  sharedModules: Map<string, unknown>;
}

function loadBundle(code: string): Sandbox {
  const context = createContext({}, { microtaskMode: 'afterEvaluate' });
  const sharedModules = new Map<string, unknown>();
  let workflowModules: Map<string, unknown> | undefined;
  Object.defineProperty(context, '__webpack_module_cache__', {
    value: new Proxy(
      {},
      {
        get: (_, id: string) => sharedModules.get(id) ?? workflowModules?.get(id),
        set: (_, id: string, module) => ((workflowModules ?? sharedModules).set(id, module), true),
      },
    ),
  });
  new Script(code, { filename: 'workflow-bundle.js' }).runInContext(context);
  const start = runInContext(
    '() => { __TEMPORAL__.importInterceptors(); __TEMPORAL__.importWorkflows(); }',
    context,
  ) as () => void;
  return {
    sharedModules,
    startWorkflow() {
      workflowModules = new Map();
      start();
      return [...workflowModules.keys()];
    },
  };
}

describe('the workflow bundle', () => {
  let code: string;
  let sandbox: Sandbox;
  beforeAll(async () => {
    code = await workflowBundleCode();
    sandbox = loadBundle(code);
  }, 120_000);

  it('evaluates no OpenTelemetry module for a workflow started without a trace context', () => {
    const evaluated = sandbox.startWorkflow();
    expect(evaluated).toContain('./workflows/webhook-delivery.ts');
    expect(evaluated).toContain('./workflows/tracing-interceptors.ts');
    expect(evaluated.filter((id) => id.includes('opentelemetry'))).toEqual([]);
    expect([...sandbox.sharedModules.keys()].filter((id) => id.includes('opentelemetry'))).toEqual([]);
    // A second start evaluates the same again: nothing OpenTelemetry's is left behind by the first.
    expect(sandbox.startWorkflow()).toEqual(evaluated);
  });

  it('still carries OpenTelemetry for a traced start', () => {
    expect(code).toContain('"./node_modules/@temporalio/interceptors-opentelemetry/lib/workflow/index.js"');
  });
});
