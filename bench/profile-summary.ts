// Summarises .cpuprofile files (bench/cpu-profile.mjs, or node --cpu-prof): for each file, where the sampled CPU
// time went by package (Folio's own code by top folder) and the functions with the most self time.
//
//   node --import tsx bench/profile-summary.ts <dir or files…> [--top 15]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const topIndex = args.indexOf('--top');
const top = topIndex >= 0 ? Number(args.splice(topIndex, 2)[1]) : 15;
const files = args.flatMap((path) =>
  statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((name) => name.endsWith('.cpuprofile'))
        .map((name) => join(path, name))
    : [path],
);

/** Who a frame belongs to: a package in node_modules, a top folder of Folio, Node itself, or the VM's own work. */
function ownerOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node';
  const folder =
    /\/(api|domain|activities|workflows|worker|platform|db|ingress|cli|clients|bench|test)\//.exec(url);
  return folder ? `folio/${folder[1]}` : url;
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, index) =>
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000),
  );
  const total = [...selfMs.values()].reduce((sum, ms) => sum + ms, 0);
  const idle = [...selfMs]
    .filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)')
    .reduce((sum, [, ms]) => sum + ms, 0);
  const busy = total - idle;
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const owner = ownerOf(url, functionName);
    owners.set(owner, (owners.get(owner) ?? 0) + ms);
    const where = url
      ? `${url.replace(/^.*\/(node_modules\/|(?=api\/|domain\/|activities\/|workflows\/|worker\/|platform\/|db\/|ingress\/))/, '')}:${lineNumber + 1}`
      : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    functions.set(key, (functions.get(key) ?? 0) + ms);
  }
  const share = (ms: number) =>
    `${((100 * ms) / busy).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(7)} ms`;
  console.log(`\n${basename(file)}: ${busy.toFixed(0)} ms busy of ${total.toFixed(0)} ms sampled`);
  console.log('  by owner:');
  for (const [owner, ms] of [...owners].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`    ${share(ms)}  ${owner}`);
  console.log('  hottest functions (self time):');
  for (const [name, ms] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`    ${share(ms)}  ${name}`);
}
