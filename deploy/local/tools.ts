// Builds the Temporal CLI and MinIO from the Go module proxy, once, into the git-ignored .tools/bin.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const TOOLS_DIR = resolve(process.env.FOLIO_TOOLS_DIR ?? '.tools/bin');

// Later Temporal CLI tags carry a replace directive and cannot be go-installed.
const TOOLS = {
  temporal: 'github.com/temporalio/cli/cmd/temporal@v1.5.1',
  // MinIO publishes no semver tags; this pins the last commit of its source release line.
  minio: 'github.com/minio/minio@v0.0.0-20260212201848-7aac2a2c5b7c',
} as const;

export type ToolName = keyof typeof TOOLS;

export function toolPath(name: ToolName): string {
  return join(TOOLS_DIR, name);
}

/** Builds any missing tool; a rebuild on a machine with a warm Go build cache takes well under a minute. */
export function ensureTools(say: (line: string) => void = (line) => process.stderr.write(line + '\n')): void {
  mkdirSync(TOOLS_DIR, { recursive: true });
  for (const [name, module] of Object.entries(TOOLS) as [ToolName, string][]) {
    if (existsSync(toolPath(name))) continue;
    say(`Building ${name} (${module}) into ${TOOLS_DIR}; the first build takes a few minutes...`);
    const started = Date.now();
    execFileSync('go', ['install', module], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, GOBIN: TOOLS_DIR, GOFLAGS: '-mod=mod' },
    });
    say(`Built ${name} in ${Math.round((Date.now() - started) / 1000)}s.`);
  }
}
