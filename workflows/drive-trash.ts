// Placeholder: workflows filled in by their own change.
export {};
