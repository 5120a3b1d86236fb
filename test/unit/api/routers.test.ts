// Routing rules that hold for every router of the app: paths match in their own case only, and a wrong method on a
// served path is told apart from an unknown path (405 with Allow, not 404).
import { describe, expect, it } from 'vitest';

describe("the app's routers", () => {
  it('match paths in their own case only, so /V1/… or /S/… reaches no route past a check written for /v1/ or /s/', async () => {
    const { appRouters } = await import('../../../api/app.js');
    const { routerServices } = await import('../../support/api-app.js');
    for (const router of appRouters(routerServices()).served) {
      expect(router.opts.sensitive, `router with prefix ${router.opts.prefix ?? '(none)'}`).toBe(true);
      for (const layer of router.stack) {
        if (!layer.methods.length) continue;
        const sample = String(layer.path).replace(/:\w+/g, 'x');
        expect(router.match(sample.toUpperCase(), layer.methods[0]!).route, `${sample} in capitals`).toBe(
          false,
        );
      }
    }
  }, 60_000);

  it('list every method a served path takes, HEAD with GET, and none for an unknown path', async () => {
    const { appRouters, methodsServing } = await import('../../../api/app.js');
    const { routerServices } = await import('../../support/api-app.js');
    const servedRouters = appRouters(routerServices()).served;
    expect(methodsServing(servedRouters, '/v1/drive/files')).toEqual(['GET', 'HEAD', 'POST']);
    expect(methodsServing(servedRouters, '/healthz')).toEqual(['GET', 'HEAD']);
    expect(methodsServing(servedRouters, '/v1/drive/nothing-here')).toEqual([]);
    expect(methodsServing(servedRouters, '/V1/drive/files')).toEqual([]);
  }, 60_000);
});
