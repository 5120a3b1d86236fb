// Loaded with NODE_OPTIONS=--import <this file> (NODE_OPTIONS refuses --cpu-prof): profiles the process from start
// to exit like --cpu-prof, writing <script>-<pid>.cpuprofile into FOLIO_CPU_PROF_DIR (server-… for the API, main-…
// for the worker). Set by the benchmarks when FOLIO_BENCH_CPU_PROF names a directory; bench/profile-summary.ts reads
// the files.
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
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error)
        writeFileSync(join(dir, `${script}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
