// Placeholder: activities filled in by their own change.
import type { ActivityDeps } from './index.js';

export function createDriveTrashActivities(_deps: ActivityDeps) {
  return {};
}
