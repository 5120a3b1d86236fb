// A count of the engine's inner-loop steps, read by the complexity tests (test/unit/documents/complexity.test.ts)
// and bench/documents-complexity.ts: they grow an input tenfold and check the work grows about tenfold, which a
// timing could not show reliably. One integer add per step; nothing in the engine reads it.
export const steps = { count: 0 };
