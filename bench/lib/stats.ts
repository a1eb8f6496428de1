// Small statistics for noisy shared machines: medians, means, deciles, a log-log slope.

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
}

export function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/** Splits `xs` into `n` consecutive, nearly equal parts (deciles for n = 10). */
export function parts<T>(xs: T[], n = 10): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < n; i++) out.push(xs.slice(Math.floor((i * xs.length) / n), Math.floor(((i + 1) * xs.length) / n)));
  return out;
}

/** Least-squares slope of log(y) over log(x): 1 = linear growth, 2 = quadratic. */
export function loglogSlope(xs: number[], ys: number[]): number {
  const lx = xs.map(Math.log);
  const ly = ys.map(Math.log);
  const mx = mean(lx);
  const my = mean(ly);
  let num = 0;
  let den = 0;
  for (let i = 0; i < lx.length; i++) {
    num += (lx[i] - mx) * (ly[i] - my);
    den += (lx[i] - mx) ** 2;
  }
  return num / den;
}

/** A trimmed mean (drops the top and bottom `trim` fraction): per-event times have GC spikes. */
export function trimmedMean(xs: number[], trim = 0.05): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const k = Math.floor(s.length * trim);
  return mean(s.slice(k, s.length - k || undefined));
}
