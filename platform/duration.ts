// Parses operator durations such as "500ms", "10s", "5m", "2h", "30d" into milliseconds.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(text);
  if (!match) return undefined;
  const [, amount, unit] = match;
  return Math.round(Number(amount) * UNIT_MS[unit as string]!);
}
