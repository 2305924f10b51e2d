// Test-only preload (node --expose-gc --import this file): a full garbage collection on SIGUSR2, so the memory
// suite can read the server's RSS at its live size rather than at V8's lazily grown heap.
process.on("SIGUSR2", () => globalThis.gc?.());
