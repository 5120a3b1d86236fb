// Transfer progress on stderr (stdout stays for the answer): on a terminal, a cli-progress bar with bytes, rate and
// ETA; elsewhere (logs, pipes, CI) nothing, unless -P/--progress asks for plain lines at each tenth. --quiet silences
// both. cli-progress is loaded only for a terminal: a command in a pipe or a script starts without it.
import type { Progress } from '../clients/typescript/src/index.js';

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export interface ProgressReporter {
  onProgress: (progress: Progress) => void;
  done: () => void;
}

const silent: ProgressReporter = { onProgress: () => undefined, done: () => undefined };

export async function progressReporter(
  label: string,
  options: { quiet?: boolean; progress?: boolean } = {},
  stream: NodeJS.WriteStream = process.stderr,
): Promise<ProgressReporter> {
  if (options.quiet) return silent;
  const started = performance.now();
  const rate = (bytes: number) =>
    `${(bytes / 1e6 / Math.max((performance.now() - started) / 1000, 1e-3)).toFixed(1)} MB/s`;
  if (!stream.isTTY) return options.progress ? plainLines(label, stream, rate) : silent;
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

function plainLines(
  label: string,
  stream: NodeJS.WriteStream,
  rate: (bytes: number) => string,
): ProgressReporter {
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

/** Notes for a person (what a directory put skipped, where a conflict went) on stderr, unless --quiet. */
export function note(options: { quiet?: boolean }, text: string): void {
  if (!options.quiet) process.stderr.write(`${text}\n`);
}

/** One line of a many-file transfer's progress (`uploaded a/b.txt`): as for a bar, on a terminal or with -P. */
export function progressLine(options: { quiet?: boolean; progress?: boolean }, text: string): void {
  if (!options.quiet && (process.stderr.isTTY || options.progress)) process.stderr.write(`${text}\n`);
}
