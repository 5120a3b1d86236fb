// Heartbeats for activities that can run long: a worker killed mid-activity is noticed within the heartbeat timeout
// (seconds) rather than the start-to-close timeout (minutes), and the activity is retried elsewhere.
import { Context } from '@temporalio/activity';

const HEARTBEAT_EVERY_MS = 1000;

/** Runs `work`, heartbeating throughout; `beat` lets the work report progress of its own as well. */
export async function heartbeating<T>(work: (beat: () => void) => Promise<T>): Promise<T> {
  const context = Context.current();
  const beat = () => context.heartbeat();
  beat();
  const timer = setInterval(beat, HEARTBEAT_EVERY_MS);
  try {
    return await work(beat);
  } finally {
    clearInterval(timer);
  }
}
