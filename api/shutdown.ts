// How an app stops, in one place: api/services.ts registers each service's hook in the order it must run, and
// api/server.ts runs the stages around closing its listener. No other module of api/ listens for a signal.
import type { Logger } from '../platform/logger.js';

/**
 * `drain`: the app begins to stop (readiness fails, live streams end) while it still serves what is in flight.
 * `close`: the last connection has closed; the clients the services hold are let go.
 */
type ShutdownStage = 'drain' | 'close';

interface Hook {
  stage: ShutdownStage;
  name: string;
  run: () => unknown;
}

export class Shutdown {
  private readonly hooks: Hook[] = [];
  private readonly ran = new Set<ShutdownStage>();

  constructor(private readonly log: Pick<Logger, 'warn'>) {}

  /** Adds a hook after those of its stage already added. */
  add(stage: ShutdownStage, name: string, run: () => unknown): void {
    this.hooks.push({ stage, name, run });
  }

  /** Runs a stage's hooks one after another, once; a hook that fails is logged and the next still runs. */
  async run(stage: ShutdownStage): Promise<void> {
    if (this.ran.has(stage)) return;
    this.ran.add(stage);
    for (const hook of this.hooks) {
      if (hook.stage !== stage) continue;
      try {
        await hook.run();
      } catch (error) {
        this.log.warn({ err: error, hook: hook.name }, 'shutdown step failed');
      }
    }
  }
}

/** Whether the app has begun to stop: /readyz answers 503 from then on, so load balancers stop sending requests. */
export class Draining {
  private draining = false;

  start(): void {
    this.draining = true;
  }

  get active(): boolean {
    return this.draining;
  }
}
