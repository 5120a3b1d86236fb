// The bounded queue behind the admin app's e-mailed sign-in links (platform/background-jobs.ts).
import { describe, expect, it } from 'vitest';
import { BackgroundJobs } from '../../../platform/background-jobs.js';

function gated() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { gate, open };
}

function jobsWith(concurrency: number, maxWaiting: number) {
  const errors: unknown[] = [];
  let drops = 0;
  const jobs = new BackgroundJobs({
    concurrency,
    maxWaiting,
    onError: (error) => errors.push(error),
    onDrop: () => (drops += 1),
  });
  return { jobs, errors, drops: () => drops };
}

describe('background jobs', () => {
  it('runs nothing of a job before the caller’s tick ends', async () => {
    const { jobs } = jobsWith(1, 1);
    let ran = false;
    jobs.add(async () => {
      ran = true;
    });
    expect(ran).toBe(false);
    await jobs.idle();
    expect(ran).toBe(true);
  });

  it('runs at most `concurrency` at once, queues `maxWaiting` more, and drops the rest', async () => {
    const { jobs, drops } = jobsWith(2, 3);
    const { gate, open } = gated();
    let running = 0;
    let most = 0;
    let done = 0;
    const job = async () => {
      running += 1;
      most = Math.max(most, running);
      await gate;
      running -= 1;
      done += 1;
    };
    const accepted = Array.from({ length: 8 }, () => jobs.add(job));
    expect(accepted).toEqual([true, true, true, true, true, false, false, false]);
    expect(drops()).toBe(3);
    expect(jobs.size).toBe(5);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running).toBe(2);
    open();
    await jobs.idle();
    expect(done).toBe(5);
    expect(most).toBe(2);
    expect(jobs.add(job)).toBe(true);
    await jobs.idle();
  });

  it('reports a job that throws or rejects, and rejects nothing (a throwing reporter included)', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const { jobs, errors } = jobsWith(1, 5);
      jobs.add(() => Promise.reject(new Error('refused')));
      jobs.add(() => {
        throw new Error('thrown');
      });
      await jobs.idle();
      expect(errors.map((error) => (error as Error).message)).toEqual(['refused', 'thrown']);

      const loud = new BackgroundJobs({
        concurrency: 1,
        maxWaiting: 0,
        onError: () => {
          throw new Error('log down');
        },
        onDrop: () => {
          throw new Error('log down');
        },
      });
      loud.add(() => Promise.reject(new Error('refused')));
      expect(loud.add(async () => {})).toBe(false);
      await loud.idle();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
