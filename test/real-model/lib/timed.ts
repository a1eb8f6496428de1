// Wall time of a step, printed for the report: measured, never asserted.

export async function timed<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const start = Date.now();
  try {
    return await fn();
  } finally {
    console.log(`      [time] ${what}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
  }
}
