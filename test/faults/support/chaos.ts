// Faults at seeded moments: SIGKILL of the worker, the API or both while a workload runs, each brought back after a
// seeded pause; and the retrying a real client does when a request got no answer. docs/faults.md.
import fc from 'fast-check';
import { inject } from 'vitest';
import { killAll, startAllAgain } from '../../support/worker.js';

/** The run's seed (printed by test/faults/setup.ts), mixed with a name so each workload draws its own sequence. */
export function seedFor(name: string): number {
  let hash = inject('faultsSeed') | 0;
  for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** `count` values of the arbitrary, the same for the same seed. */
export const draw = <T>(arbitrary: fc.Arbitrary<T>, seed: number, count: number): T[] =>
  fc.sample(arbitrary, { seed, numRuns: count });

export type KillTarget = 'worker' | 'api' | 'both';

export interface KillStep {
  /** Pause before the kill, counted from the moment the previous step's processes were back. */
  afterMs: number;
  target: KillTarget;
  /** How long the killed processes stay down. */
  downMs: number;
}

export interface Kill {
  target: KillTarget;
  /** Milliseconds since the chaos started. */
  atMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Kills processes by a seeded plan until stopped. The plan is drawn up front from the seed, so a failure replays the
 * same sequence of targets and pauses (the moments within the work still depend on the machine's speed).
 */
export class Chaos {
  readonly kills: Kill[] = [];
  private readonly plan: KillStep[];
  private running = false;
  private wake: () => void = () => undefined;
  private loop: Promise<void> = Promise.resolve();
  private readonly startedAt = Date.now();

  /**
   * `kills` kills at most, each after a pause of minGapMs to maxGapMs once the previous one's processes are back: a
   * Temporal activity on a killed worker is retried only after its heartbeat timeout (10 to 30 s), so kills much
   * closer than that would starve the work rather than test its recovery.
   */
  constructor(
    seed: number,
    options: { kills: number; minGapMs?: number; maxGapMs?: number; targets?: KillTarget[] },
  ) {
    const step = fc.record({
      afterMs: fc.integer({ min: options.minGapMs ?? 2_000, max: options.maxGapMs ?? 12_000 }),
      target: fc.constantFrom<KillTarget>(...(options.targets ?? ['worker', 'api', 'both'])),
      downMs: fc.integer({ min: 0, max: 2_000 }),
    });
    this.plan = draw(step, seed, options.kills);
  }

  start(): this {
    this.running = true;
    this.loop = (async () => {
      for (const step of this.plan) {
        await this.pause(step.afterMs);
        if (!this.running) return;
        await this.kill(step.target);
        await this.pause(step.downMs);
        await this.restore(step.target);
        const kill = this.kills.at(-1)!;
        console.log(
          `[faults] killed ${step.target} at ${Math.round(kill.atMs / 1000)} s, serving again ${Math.round((Date.now() - this.startedAt - kill.atMs) / 1000)} s later`,
        );
        if (!this.running) return;
      }
    })();
    return this;
  }

  /** Ends the plan; answers once every process is back and the API ready. */
  async stop(): Promise<Kill[]> {
    this.running = false;
    this.wake();
    await this.loop;
    return this.kills;
  }

  async kill(target: KillTarget): Promise<void> {
    this.kills.push({ target, atMs: Date.now() - this.startedAt });
    if (target !== 'api') killAll('worker');
    if (target !== 'worker') killAll('api');
  }

  /** Starts again what the kill took, and waits until it serves: the next pause counts from there. */
  async restore(target: KillTarget): Promise<void> {
    await Promise.all([
      target !== 'api' && startAllAgain('worker', { ready: true }),
      target !== 'worker' && startAllAgain('api'),
    ]);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

/** A summary for the log: how many kills of each target. */
export function tally(kills: Kill[]): Record<KillTarget, number> {
  const counts: Record<KillTarget, number> = { worker: 0, api: 0, both: 0 };
  for (const kill of kills) counts[kill.target]++;
  return counts;
}

/** Statuses a client retries: the API or a service behind it was down (the stack is not overloaded otherwise). */
const RETRIED_STATUSES = new Set([500, 502, 503, 504]);

export const faultCounters = { networkErrors: 0, retriedStatuses: 0 };

/**
 * Sends a request again, with a short backoff, while it got no answer (the process died or was not back yet) or an
 * answer saying a service behind the API was unavailable; up to `timeoutMs`. Answers the first other response.
 */
export async function retrying<T extends { status: number }>(
  send: () => Promise<T>,
  what: string,
  timeoutMs = 180_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (let delay = 100; Date.now() < deadline; delay = Math.min(delay * 2, 2_000)) {
    try {
      const response = await send();
      if (!RETRIED_STATUSES.has(response.status)) return response;
      faultCounters.retriedStatuses++;
      last = `status ${response.status}: ${JSON.stringify((response as { body?: unknown }).body ?? '')}`;
    } catch (error) {
      if (!isNoAnswer(error)) throw error;
      faultCounters.networkErrors++;
      last = error;
    }
    await sleep(delay);
  }
  throw new Error(`${what}: no usable answer within ${timeoutMs / 1000}s; last: ${String(last)}`);
}

/** fetch's failure when the connection was refused or cut: the request may or may not have been acted on. */
function isNoAnswer(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /fetch failed|terminated|other side closed|socket/i.test(`${error.message} ${String(error.cause ?? '')}`)
  );
}

export { sleep };
