// Loaded with NODE_OPTIONS=--import <this file> (NODE_OPTIONS refuses --cpu-prof): profiles the process from start
// to exit like --cpu-prof, writing a .cpuprofile into FOLIO_CPU_PROF_DIR. Used by the benchmarks on the API process.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

const dir = process.env.FOLIO_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  // A same-thread inspector session answers synchronously, so the profile is written before the process ends.
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(join(dir, `api-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
