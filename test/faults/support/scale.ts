// The fault suite's two sizes: `ci` (npm test) and `large` (FOLIO_FAULTS_SCALE=large), docs/faults.md § Sizes.
export type FaultsScale = 'ci' | 'large';

export function faultsScale(): FaultsScale {
  const scale = process.env.FOLIO_FAULTS_SCALE ?? 'ci';
  if (scale !== 'ci' && scale !== 'large') throw new Error(`FOLIO_FAULTS_SCALE is ci or large, not ${scale}`);
  return scale;
}

/** The CI figure or the large one, by the run's scale. */
export const sized = (ci: number, large: number): number => (faultsScale() === 'large' ? large : ci);

/**
 * How long a workload may take to settle after its last step: the large size runs 40 kills, each of which may cost a
 * cascade batch its heartbeat timeout (up to 30 s) before Temporal retries it elsewhere.
 */
export const settleDeadlineMs = (): number => sized(600_000, 2_400_000);
