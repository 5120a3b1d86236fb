// deploy/local/tools.ts builds each missing tool once when several processes ask at the same time (suites started side
// by side on a fresh checkout): the cluster's tools under the same lock as the CLI and MinIO. `go` is a stand-in here
// that records its calls and writes an executable where `go install` would; it waits at a gate until both processes
// have asked for the first tool, so the second one asks while the first one builds.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const FAKE_GO = `#!/bin/sh
echo "$*" >> "$FAKE_GO_LOG"
# The gate: the test opens it once both processes have asked for the first tool (a wait-until loop's poll interval).
while [ ! -e "$FAKE_GO_GATE" ]; do sleep 0.05; done
name=$(echo "$2" | sed 's/@.*//; s#.*/##')
mkdir -p "$GOBIN" && printf '#!/bin/sh\\n' > "$GOBIN/$name" && chmod +x "$GOBIN/$name"
`;

function ensureClusterToolsIn(env: NodeJS.ProcessEnv) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      "import('./deploy/local/tools.ts').then((tools) => tools.ensureClusterTools())",
    ],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  return { output: () => output, exited };
}

describe('ensureClusterTools', () => {
  it('builds each tool once when two processes ask at once', { timeout: 120_000 }, async () => {
    dir = mkdtempSync(join(tmpdir(), 'folio-tools-'));
    const bin = join(dir, 'fake-bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'go'), FAKE_GO);
    chmodSync(join(bin, 'go'), 0o755);
    const log = join(dir, 'go.log');
    const gate = join(dir, 'gate');
    const env = {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      FOLIO_TOOLS_DIR: join(dir, 'tools'),
      FAKE_GO_LOG: log,
      FAKE_GO_GATE: gate,
    };
    const runs = [ensureClusterToolsIn(env), ensureClusterToolsIn(env)];
    // Both have said they build temporal-server: the first is inside go install, the second waits or builds too.
    const deadline = Date.now() + 60_000;
    while (!runs.every((run) => run.output().includes('Building temporal-server'))) {
      if (Date.now() > deadline)
        throw new Error(`both did not ask: ${runs.map((r) => r.output()).join('\n')}`);
      await new Promise((r) => setTimeout(r, 50)); // A wait-until loop's poll interval.
    }
    writeFileSync(gate, '');
    expect(await Promise.all(runs.map((run) => run.exited))).toEqual([0, 0]);

    const calls = readFileSync(log, 'utf8').trim().split('\n').sort();
    expect(calls).toEqual([
      'install github.com/temporalio/ui-server/v2/cmd/server@v2.42.1',
      'install go.temporal.io/server/cmd/server@v1.29.1',
      'install go.temporal.io/server/cmd/tools/sql@v1.29.1',
    ]);
    for (const tool of ['temporal-server', 'temporal-sql-tool', 'temporal-ui'])
      expect(existsSync(join(dir, 'tools', tool))).toBe(true);
    for (const leftover of ['.build-temporal-server', '.build-temporal-sql-tool', '.build-temporal-ui'])
      expect(existsSync(join(dir, 'tools', leftover))).toBe(false);
  });
});
