// What a piece of work costs the process in CPU time (user + system, every thread: the embedded
// emulators' too, which a request's work includes), not in wall time. Other processes on a loaded
// machine make work wait, not cost more, so "a hostile input is refused cheaply" holds there as well:
// a bound on CPU time is a bound on work done (an exponential backtrack, an alias bomb, a sparse array
// of four billion slots), with no scheduling noise in it.

/** Runs `work` and returns its value with the CPU milliseconds the process spent meanwhile. */
export async function withCpuTime<T>(work: () => T | Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const start = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(start);
  return { value, cpuMs: (used.user + used.system) / 1000 };
}
