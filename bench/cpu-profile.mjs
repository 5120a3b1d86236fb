// Loaded with NODE_OPTIONS=--import <this file> (NODE_OPTIONS refuses --cpu-prof): profiles the process's main thread
// (not its worker threads, such as the Temporal worker's workflow thread: Node 20 runs no --import there) from its
// start to its SIGTERM or SIGINT, or else its exit, writing <script>-<pid>.cpuprofile into FOLIO_CPU_PROF_DIR
// (server-… for the API, main-… for the worker). Set by the benchmarks when FOLIO_BENCH_CPU_PROF names a directory;
// bench/profile-summary.ts reads the files.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import process from 'node:process';

const dir = process.env.FOLIO_CPU_PROF_DIR;
if (dir) {
  const script = basename(process.argv[1] ?? 'node').replace(/\.[cm]?[jt]s$/, '');
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  // A same-thread inspector session answers synchronously, so the profile is written before the process ends.
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    session.post('Profiler.stop', (error, result) => {
      if (!error)
        writeFileSync(join(dir, `${script}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  };
  // Written as soon as the process is asked to stop, before its own shutdown runs: a stack's stop (deploy/local)
  // kills what still runs 10 s after its SIGTERM, and a worker that first drains its Temporal pollers, then serialises
  // a long profile at exit, may not make it on a loaded machine (the likely loss of the worker's profile in the run of
  // 09:32 in docs/benchmarks.md, at load 27-47; at load 10 it was written). The shutdown is left out of the profile.
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.prependListener(signal, function onSignal() {
      write();
      // Alone, this listener would keep the process from the signal's default action: end it as that would.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    });
  }
  process.on('exit', write);
}
