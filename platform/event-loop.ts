// Who held the event loop: a watchdog timer that notices when the loop did not turn for longer than a threshold and
// names the work that ran meanwhile (docs/observability.md § Event loop). The delay percentiles are in platform/metrics.ts.
import { performance } from 'node:perf_hooks';

export interface WatchOptions<T> {
  /** How often the watchdog's timer asks to run; a hold is measured to within this. */
  intervalMs: number;
  /** A gap between two runs of the timer longer than this is reported. */
  thresholdMs: number;
  /** Called after the loop turns again: how long it did not (an upper bound), and what ran in that time. */
  onHeld(heldMs: number, suspects: T[]): void;
}

/**
 * The units of work of a process (its requests) and a timer that measures its own gaps. A gap longer than the
 * threshold means something held the loop; the suspects are what was running then: the work in flight now, and the
 * work that ended since the timer last ran (a handler that blocks and then finishes in the same turn is gone from the
 * in-flight set by the time the timer runs).
 */
export class EventLoopWatch<T> {
  private readonly running = new Set<T>();
  private ended: T[] = [];
  private timer: NodeJS.Timeout | undefined;

  /** Marks a unit of work as running; call the answer when it ends. */
  begin(work: T): () => void {
    this.running.add(work);
    return () => {
      this.running.delete(work);
      // Kept only while the timer runs, which clears them at every turn: nothing accumulates when it is off.
      if (this.timer) this.ended.push(work);
    };
  }

  start(options: WatchOptions<T>): void {
    this.stop();
    let last = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      const gap = now - last;
      last = now;
      const suspects = this.ended.length ? [...this.running, ...this.ended] : undefined;
      this.ended = [];
      if (gap > options.thresholdMs) options.onHeld(gap, suspects ?? [...this.running]);
    }, options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.ended = [];
  }
}
