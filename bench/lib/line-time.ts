// How the time of a pass over a text grows with its size: the time per line on a large input against the time per
// line on one a tenth its size, both measured in this process one after the other (medians of repeated runs after a
// warm-up). 1 = linear; a machine that is slower or busier for both sizes alike does not move it.

import { performance } from 'node:perf_hooks';
import { median } from './stats';

export interface LineTime {
  smallLines: number;
  largeLines: number;
  smallUsPerLine: number;
  largeUsPerLine: number;
  /** largeUsPerLine / smallUsPerLine. */
  ratio: number;
}

function usPerLine<T>(input: T, lines: number, work: (input: T) => void, repeats: number): number {
  work(input);
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    work(input);
    times.push(performance.now() - t0);
  }
  return (median(times) * 1000) / lines;
}

export function lineTime<T>(largeLines: number, build: (lines: number) => T, work: (input: T) => void, repeats: number): LineTime {
  const smallLines = Math.round(largeLines / 10);
  const smallUsPerLine = usPerLine(build(smallLines), smallLines, work, repeats * 3);
  const largeUsPerLine = usPerLine(build(largeLines), largeLines, work, repeats);
  return { smallLines, largeLines, smallUsPerLine, largeUsPerLine, ratio: largeUsPerLine / smallUsPerLine };
}
