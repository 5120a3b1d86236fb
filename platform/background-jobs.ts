// Work a request starts but does not wait for (the admin app's e-mailed sign-in links), run a few at a time from a
// bounded queue: a burst cannot pile up jobs, and a job that fails is reported, never an unhandled rejection.

export interface BackgroundJobsOptions {
  /** Jobs that run at once. */
  concurrency: number;
  /** Jobs that may wait for a free slot; one more is dropped. */
  maxWaiting: number;
  /** Told of a job that threw or rejected. */
  onError: (error: unknown) => void;
  /** Told of a job dropped because the queue was full. */
  onDrop: () => void;
}

export class BackgroundJobs {
  private running = 0;
  private readonly waiting: (() => Promise<void>)[] = [];
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: BackgroundJobsOptions) {}

  /**
   * Queues a job; false when it was dropped. Nothing of the job runs before the caller's current tick ends (a
   * request's answer is written first), and whatever it throws goes to onError.
   */
  add(job: () => Promise<void>): boolean {
    if (this.running + this.waiting.length >= this.options.concurrency + this.options.maxWaiting) {
      this.report(this.options.onDrop);
      return false;
    }
    this.waiting.push(job);
    setImmediate(() => this.startNext());
    return true;
  }

  /** Jobs running or waiting. */
  get size(): number {
    return this.running + this.waiting.length;
  }

  /** Resolves once no job runs or waits (tests; a shutdown that lets the queue drain). */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private startNext(): void {
    if (this.running >= this.options.concurrency) return;
    const job = this.waiting.shift();
    if (!job) return;
    this.running += 1;
    void this.run(job);
  }

  private async run(job: () => Promise<void>): Promise<void> {
    try {
      await job();
    } catch (error) {
      this.report(() => this.options.onError(error));
    } finally {
      this.running -= 1;
      this.startNext();
      if (this.size === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const resolve of waiters) resolve();
      }
    }
  }

  /** A reporter that throws (a broken log transport) must not become the rejection this class exists to prevent. */
  private report(callback: () => void): void {
    try {
      callback();
    } catch {
      // Nothing left to tell.
    }
  }
}
