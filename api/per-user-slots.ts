// Things one person holds open in one app at a time (live streams, Drive long-polls): counted per person so that
// one person (or one leaked client) cannot hold them without bound.

export class PerUserSlots {
  private readonly held = new Map<string, number>();
  private readonly enders = new Set<() => void>();

  /** How many the person holds now. */
  count(userUuid: string): number {
    return this.held.get(userUuid) ?? 0;
  }

  /**
   * Counts one more for the person, or answers undefined when they already hold `limit`; the release it returns is
   * safe to call twice. Checked and counted with no await between, so concurrent requests cannot pass the cap together.
   * `end`, when given, is called by endAll (the app stopping) unless released first.
   */
  take(userUuid: string, limit: number, end?: () => void): (() => void) | undefined {
    const held = this.count(userUuid);
    if (held >= limit) return undefined;
    this.held.set(userUuid, held + 1);
    if (end) this.enders.add(end);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (end) this.enders.delete(end);
      const left = this.count(userUuid) - 1;
      if (left > 0) this.held.set(userUuid, left);
      else this.held.delete(userUuid);
    };
  }

  /** Ends every slot taken with an `end` (the app is stopping). */
  endAll(): void {
    for (const end of [...this.enders]) end();
  }
}
