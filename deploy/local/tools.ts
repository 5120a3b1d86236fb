// Builds the Temporal CLI and MinIO from the Go module proxy, once, into the git-ignored .tools/bin; and, for the
// local cluster (deploy/local/cluster.ts), the Temporal server and its SQL schema tool.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const TOOLS_DIR = resolve(process.env.FOLIO_TOOLS_DIR ?? '.tools/bin');
/** Held (flock, util-linux) while a tool builds. */
const BUILD_LOCK = join(TOOLS_DIR, '.build.lock');

// Later Temporal CLI tags carry a replace directive and cannot be go-installed.
const TOOLS = {
  temporal: 'github.com/temporalio/cli/cmd/temporal@v1.5.1',
  // MinIO publishes no semver tags; this pins the last commit of its source release line.
  minio: 'github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c',
} as const;

/** The Temporal server's version inside the CLI above: building it reuses most of the CLI's Go build cache. */
export const TEMPORAL_SERVER_MODULE = 'go.temporal.io/server@v1.29.1';

// Named as Temporal's images name them (`go install` would name them server and sql).
const CLUSTER_TOOLS = {
  'temporal-server': 'go.temporal.io/server/cmd/server@v1.29.1',
  'temporal-sql-tool': 'go.temporal.io/server/cmd/tools/sql@v1.29.1',
  // The Temporal UI's server, the version inside the Temporal CLI above, pointed at the cluster (deploy/temporal/ui.yaml).
  'temporal-ui': 'github.com/temporalio/ui-server/v2/cmd/server@v2.42.1',
} as const;

export type ToolName = keyof typeof TOOLS | keyof typeof CLUSTER_TOOLS;

export function toolPath(name: ToolName): string {
  return join(TOOLS_DIR, name);
}

/** Builds the Temporal server, temporal-sql-tool and the UI server if missing (minutes the first time on this machine). */
export function ensureClusterTools(
  say: (line: string) => void = (line) => process.stderr.write(line + '\n'),
): void {
  buildMissing(CLUSTER_TOOLS, 'several minutes', say);
}

/** Builds any missing tool; a rebuild on a machine with a warm Go build cache takes well under a minute. */
export function ensureTools(say: (line: string) => void = (line) => process.stderr.write(line + '\n')): void {
  buildMissing(TOOLS, 'a few minutes', say);
}

function buildMissing(tools: Record<string, string>, takes: string, say: (line: string) => void): void {
  mkdirSync(TOOLS_DIR, { recursive: true });
  for (const [name, module] of Object.entries(tools) as [ToolName, string][]) {
    if (existsSync(toolPath(name))) continue;
    say(`Building ${name} (${module}) into ${TOOLS_DIR}; the first build takes ${takes}...`);
    const started = Date.now();
    // Under one lock, and only if no one built it while this waited: suites started side by side on a fresh checkout
    // each call this, and six builds of the same tool at once took a 2-core machine for a quarter of an hour. Each
    // tool goes to a folder of its own, then to its name: `go install` names a binary after its package's folder.
    const gobin = join(TOOLS_DIR, `.build-${name}`);
    const built = join(gobin, module.replace(/@.*$/, '').split('/').at(-1)!);
    execFileSync(
      'flock',
      [
        BUILD_LOCK,
        'sh',
        '-c',
        'test -x "$1" || { rm -rf "$3" && GOBIN="$3" go install "$2" && mv "$4" "$1" && rm -rf "$3"; }',
        'sh',
        toolPath(name),
        module,
        gobin,
        built,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, GOFLAGS: '-mod=mod' } },
    );
    say(`Built ${name} in ${Math.round((Date.now() - started) / 1000)}s.`);
  }
}
