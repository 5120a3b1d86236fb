// The Kubernetes manifests (deploy/k8s/) and the compose file carry the configuration the local cluster ran with
// (`npm run cluster`, deploy/local/): the Temporal server's configuration files themselves, its services, ports and
// variables, Folio's search attributes, the probes' paths and ports as the processes serve them, the variables Folio
// knows, and two APIs and two workers. Any drift between them fails here (docs/operations.md § Deploy).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { healthRouter } from '../../../api/routes/health.js';
import { PORTS, WORKER_REPLICAS } from '../../../deploy/local/cluster.js';
import { freePort } from '../../../deploy/local/services.js';
import {
  CLUSTER_PORTS,
  CLUSTER_SERVICES,
  defaultListeningPort,
  serviceStartArgs,
} from '../../../deploy/local/temporal-cluster.js';
import { loadConfig } from '../../../platform/config.js';
import { startMetricsServer } from '../../../platform/metrics.js';
import { SEARCH_ATTRIBUTES } from '../../../workflows/registry.js';

interface Container {
  command?: string[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { containerPort: number; name?: string }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface Probe {
  httpGet?: { path: string; port: string | number };
  tcpSocket?: { port: string | number };
}
interface PodSpec {
  containers: Container[];
  volumes?: { name: string; configMap?: { name: string } }[];
}
interface K8sObject {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    replicas?: number;
    minReplicaCount?: number;
    template?: { spec: PodSpec };
    ports?: { port: number; targetPort: string | number }[];
  };
}
interface ComposeService {
  entrypoint?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  deploy?: { replicas?: number };
  healthcheck?: { test: string[] };
}

const text = (path: string) => readFileSync(path, 'utf8');
const k8s = ['folio.yaml', 'temporal.yaml', 'worker-autoscaler.yaml'].flatMap((file) =>
  parseAllDocuments(text(`deploy/k8s/${file}`)).map((document) => document.toJS() as K8sObject),
);
const compose = parse(text('deploy/compose.yaml'), { merge: true }) as {
  services: Record<string, ComposeService>;
};

function object(kind: string, name: string): K8sObject {
  const found = k8s.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`deploy/k8s has no ${kind} ${name}`);
  return found;
}
const podSpec = (name: string) => object('Deployment', name).spec!.template!.spec;
const container = (name: string) => podSpec(name).containers[0]!;

/** The variables a container gets: its ConfigMaps and Secrets (envFrom), then its own env. */
function containerEnv(c: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of c.envFrom ?? []) {
    if (source.configMapRef) Object.assign(env, object('ConfigMap', source.configMapRef.name).data);
    if (source.secretRef) Object.assign(env, object('Secret', source.secretRef.name).stringData);
  }
  for (const variable of c.env ?? []) env[variable.name] = variable.value ?? '<from the pod>';
  return env;
}

const portNumber = (c: Container, port: string | number) =>
  typeof port === 'number' ? port : c.ports?.find((p) => p.name === port)?.containerPort;

/** The Folio configuration a process with these variables loads (a real master key: the manifests hold a placeholder). */
const folioConfig = (env: Record<string, string>) =>
  loadConfig({ ...env, FOLIO_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') });

/** Every variable deploy/temporal/cluster.yaml reads, with its default (what `npm run cluster` runs with). */
const clusterYaml = text('deploy/temporal/cluster.yaml');
const clusterVariables = new Map(
  [...clusterYaml.matchAll(/env "(FOLIO_CLUSTER_\w+)"(?: \| default "([^"]*)")?/g)].map((m) => [m[1]!, m[2]]),
);

/** How many APIs and workers `npm run cluster` starts (deploy/local/cluster.ts). */
const localClusterReplicas = { apis: PORTS.apis.length, workers: WORKER_REPLICAS.length };

describe('deploy/ carries what the local cluster ran', () => {
  it('holds deploy/temporal/ byte for byte in the Temporal ConfigMap, mounted where the services read it', () => {
    const { data } = object('ConfigMap', 'temporal-config');
    expect(Object.keys(data!)).toEqual(
      expect.arrayContaining([
        'cluster.yaml',
        'dynamicconfig.yaml',
        'setup-schema.sh',
        'register-namespace.sh',
      ]),
    );
    for (const [name, content] of Object.entries(data!))
      expect(content, `temporal-config ${name}`).toBe(text(`deploy/temporal/${name}`));
    expect(/numHistoryShards: (\d+)/.exec(data!['cluster.yaml']!)?.[1]).toBe('4');

    for (const service of CLUSTER_SERVICES) {
      const spec = podSpec(`temporal-${service}`);
      const c = spec.containers[0]!;
      const volume = spec.volumes?.find((v) => v.configMap?.name === 'temporal-config')?.name;
      const mount = c.volumeMounts?.find((m) => m.name === volume)?.mountPath;
      const args = c.command!;
      const at = (flag: string) => args[args.indexOf(flag) + 1];
      expect(`${at('--root')}/${at('--config')}`).toBe(mount);
      // --env cluster: the server reads <config>/cluster.yaml, as deploy/local/temporal-cluster.ts has it do.
      expect(args.slice(args.indexOf('--env'))).toEqual(serviceStartArgs(service));
      expect(containerEnv(c).FOLIO_CLUSTER_DYNAMIC_CONFIG).toBe(`${mount}/dynamicconfig.yaml`);
    }

    const temporal = compose.services.temporal!;
    const args = temporal.entrypoint!;
    const at = (flag: string) => args[args.indexOf(flag) + 1];
    const configDir = `${at('--root')}/${at('--config')}`;
    expect(temporal.volumes).toContain(`./temporal:${configDir}:ro`);
    expect(at('--env')).toBe('cluster');
    expect(args.filter((_, i) => args[i - 1] === '--service').sort()).toEqual([...CLUSTER_SERVICES].sort());
    expect(temporal.environment!.FOLIO_CLUSTER_DYNAMIC_CONFIG).toBe(`${configDir}/dynamicconfig.yaml`);
    for (const setup of ['temporal-schema', 'temporal-namespace'])
      expect(compose.services[setup]!.volumes).toContain(`./temporal:${configDir}:ro`);
  });

  it("sets only variables the Temporal server's configuration reads, and those a pod or container must", () => {
    // The defaults of cluster.yaml are the ports deploy/local/temporal-cluster.ts gives `npm run cluster`.
    for (const service of CLUSTER_SERVICES)
      expect(clusterVariables.get(`FOLIO_CLUSTER_${service.toUpperCase()}_PORT`)).toBe(
        String(CLUSTER_PORTS[service]),
      );
    // Loopback and the local databases are the defaults; a pod or container sets its own.
    const mustSet = [
      'FOLIO_CLUSTER_PG_ADDR',
      'FOLIO_CLUSTER_PG_USER',
      'FOLIO_CLUSTER_PG_PASSWORD',
      'FOLIO_CLUSTER_DB',
      'FOLIO_CLUSTER_VISIBILITY_DB',
      'FOLIO_CLUSTER_DYNAMIC_CONFIG',
      'FOLIO_CLUSTER_BIND_IP',
      'FOLIO_CLUSTER_METRICS_HOST',
    ];
    const environments = {
      ...Object.fromEntries(
        CLUSTER_SERVICES.map((s) => [`k8s temporal-${s}`, containerEnv(container(`temporal-${s}`))]),
      ),
      'compose temporal': compose.services.temporal!.environment!,
    };
    for (const [where, env] of Object.entries(environments)) {
      const names = Object.keys(env).filter((name) => name.startsWith('FOLIO_'));
      expect(
        names.filter((name) => !clusterVariables.has(name)),
        where,
      ).toEqual([]);
      expect(
        mustSet.filter((name) => !(name in env)),
        where,
      ).toEqual([]);
      expect(env.FOLIO_CLUSTER_BIND_IP, where).toBe('0.0.0.0');
    }
    // Pods reach each other at their own addresses; the compose container's four services share its loopback.
    for (const service of CLUSTER_SERVICES)
      expect(container(`temporal-${service}`).env).toContainEqual({
        name: 'FOLIO_CLUSTER_BROADCAST_ADDRESS',
        valueFrom: { fieldRef: { fieldPath: 'status.podIP' } },
      });
  });

  it('serves Temporal where the probes, the Service and Folio look for it', () => {
    for (const service of CLUSTER_SERVICES) {
      const c = container(`temporal-${service}`);
      // What deploy/local/temporal-cluster.ts waits for: the port the service listens on once it runs.
      for (const probe of [c.startupProbe, c.livenessProbe])
        expect(portNumber(c, probe!.tcpSocket!.port), service).toBe(defaultListeningPort(service));
    }
    const frontend = object('Service', 'temporal-frontend').spec!.ports![0]!;
    expect(portNumber(container('temporal-frontend'), frontend.targetPort)).toBe(CLUSTER_PORTS.frontend);
    expect(object('ConfigMap', 'folio-config').data!.FOLIO_TEMPORAL_ADDRESS).toBe(
      `temporal-frontend.temporal.svc.cluster.local:${frontend.port}`,
    );
    expect(object('ConfigMap', 'temporal-env').data!.TEMPORAL_ADDRESS).toBe(
      `temporal-frontend.temporal.svc.cluster.local:${frontend.port}`,
    );
    const composeAddress = `temporal:${CLUSTER_PORTS.frontend}`;
    expect(compose.services.worker!.environment!.FOLIO_TEMPORAL_ADDRESS).toBe(
      `\${FOLIO_TEMPORAL_ADDRESS:-${composeAddress}}`,
    );
    expect(compose.services.temporal!.environment!.TEMPORAL_ADDRESS).toBe(composeAddress);
  });

  it("registers Folio's search attributes, with their types, where the local cluster registers them", () => {
    const script = text('deploy/temporal/register-namespace.sh');
    const pairs = [...script.matchAll(/--name (\w+) --type (\w+)/g)];
    const registered = pairs.map((m) => [m[1], m[2]!.toUpperCase()]);
    // The CLI pairs the n-th --name with the n-th --type: a name without its type would not be added.
    expect(script.match(/--name /g)).toHaveLength(pairs.length);
    expect(registered.sort()).toEqual(SEARCH_ATTRIBUTES.map((key) => [key.name, key.type]).sort());
    const job = object('Job', 'temporal-namespace-1').spec!.template!.spec.containers[0]!;
    expect(job.command).toEqual(['sh', '/etc/temporal/folio/register-namespace.sh']);
    expect(compose.services['temporal-namespace']!.entrypoint).toEqual([
      'sh',
      '/etc/temporal/folio/register-namespace.sh',
    ]);
  });

  it('probes the paths and ports the API and the worker serve', async () => {
    const routes = healthRouter({} as never).stack.filter((layer) => layer.methods.includes('GET'));
    const served = routes.map((layer) => layer.path);
    expect(served).toEqual(expect.arrayContaining(['/healthz', '/readyz']));

    const api = container('folio-api');
    const apiConfig = folioConfig(containerEnv(api));
    for (const probe of [api.startupProbe!, api.livenessProbe!, api.readinessProbe!]) {
      expect(served).toContain(probe.httpGet!.path);
      expect(portNumber(api, probe.httpGet!.port)).toBe(apiConfig.port);
    }
    // Readiness is the route that fails while the API drains (docs/operations.md § Graceful shutdown).
    expect(api.readinessProbe!.httpGet!.path).toBe('/readyz');
    expect(apiConfig.host).toBe('0.0.0.0');
    expect(portNumber(api, 'metrics')).toBe(apiConfig.metrics.apiPort);

    const worker = container('folio-worker');
    const workerConfig = folioConfig(containerEnv(worker));
    const probe = worker.livenessProbe!.httpGet!;
    expect(portNumber(worker, probe.port)).toBe(workerConfig.metrics.workerPort);
    // The kubelet probes the pod's address: the metrics server must listen there, not on loopback.
    expect(workerConfig.metrics.host).toBe('0.0.0.0');
    // The worker's metrics server answers the probe's path.
    const port = await freePort();
    const metrics = (await startMetricsServer('127.0.0.1', port))!;
    try {
      expect((await fetch(`http://127.0.0.1:${port}${probe.path}`)).status).toBe(200);
    } finally {
      metrics.close();
    }

    const composeApi = compose.services.api!;
    const check = new URL(composeApi.healthcheck!.test.join(' ').match(/http:\/\/[^'"]+/)![0]);
    expect(served).toContain(check.pathname);
    expect(Number(check.port)).toBe(
      folioConfig(Object.fromEntries(Object.entries(composeApi.environment!).map(([k, v]) => [k, expand(v)])))
        .port,
    );
  });

  it('names only variables platform/config.ts knows', () => {
    const known = new Set(
      [...text('platform/config.ts').matchAll(/\b(FOLIO_[A-Z0-9_]+):/g)].map((m) => m[1]),
    );
    const folioEnvs = {
      'k8s folio-api': containerEnv(container('folio-api')),
      'k8s folio-worker': containerEnv(container('folio-worker')),
      'compose api': compose.services.api!.environment!,
      'compose worker': compose.services.worker!.environment!,
    };
    for (const [where, env] of Object.entries(folioEnvs))
      expect(
        Object.keys(env).filter((name) => !known.has(name)),
        where,
      ).toEqual([]);
  });

  it('runs two APIs and two workers, as the local cluster does', () => {
    const { apis, workers } = localClusterReplicas;
    expect(object('Deployment', 'folio-api').spec!.replicas).toBe(apis);
    expect(object('Deployment', 'folio-worker').spec!.replicas).toBe(workers);
    expect(object('ScaledObject', 'folio-worker').spec!.minReplicaCount).toBe(workers);
    expect(compose.services.worker!.deploy?.replicas).toBe(workers);
    expect([apis, workers]).toEqual([2, 2]);
  });
});

/** A compose value with its ${NAME:-default} interpolations at their defaults. */
function expand(value: string): string {
  return String(value).replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, '$1');
}
