// Transfer progress on stderr (stdout stays for the answer): a cli-progress bar with bytes, rate and ETA on a
// terminal; plain lines at each tenth when stderr is not a terminal (logs, pipes, CI). cli-progress is loaded only
// for a terminal: a command in a pipe or a script starts without it.
import type { Progress } from '../clients/typescript/src/index.js';

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export interface ProgressReporter {
  onProgress: (progress: Progress) => void;
  done: () => void;
}

export async function progressReporter(
  label: string,
  stream: NodeJS.WriteStream = process.stderr,
): Promise<ProgressReporter> {
  const started = performance.now();
  const rate = (bytes: number) =>
    `${(bytes / 1e6 / Math.max((performance.now() - started) / 1000, 1e-3)).toFixed(1)} MB/s`;
  if (stream.isTTY) {
    const { default: cliProgress } = await import('cli-progress');
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: `${label} {bar} {percentage}% | {done}/{size} | {rate} | ETA {eta_formatted}`,
        hideCursor: true,
        etaBuffer: 20,
      },
      cliProgress.Presets.shades_classic,
    );
    let begun = false;
    return {
      onProgress: (progress) => {
        const payload = {
          done: mb(progress.bytesDone),
          size: mb(progress.bytesTotal),
          rate: rate(progress.bytesDone),
        };
        // An empty file is done at once: a bar of 0 bytes would divide by zero, so it counts as one unit.
        const total = Math.max(progress.bytesTotal, 1);
        const value = progress.bytesTotal ? progress.bytesDone : progress.partsDone;
        if (!begun) bar.start(total, value, payload);
        else bar.update(value, payload);
        begun = true;
      },
      done: () => begun && bar.stop(),
    };
  }
  let lastTenth = -1;
  return {
    onProgress: (progress) => {
      const fraction = progress.bytesTotal
        ? progress.bytesDone / progress.bytesTotal
        : progress.partsDone / Math.max(progress.partsTotal, 1);
      const tenth = Math.floor(fraction * 10);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      stream.write(
        `${label} ${Math.round(fraction * 100)}% ${mb(progress.bytesDone)} of ${mb(progress.bytesTotal)} ${rate(progress.bytesDone)}\n`,
      );
    },
    done: () => undefined,
  };
}
