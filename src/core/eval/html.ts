// Escaping for the report. Answers are model-written and item ids and questions come from the dataset: all of it
// is hostile input, so every string goes through `esc` before it reaches markup, text and attributes alike.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** A fraction as a percentage, "–" when unknown. */
export function pct(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined ? '–' : `${(x * 100).toFixed(digits)}%`;
}

export function usd(x: number | null | undefined): string {
  if (x === null || x === undefined) return 'unknown';
  if (x === 0) return '$0';
  return x < 0.01 ? `$${x.toFixed(4)}` : `$${x.toFixed(2)}`;
}

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** Text cut to `max` characters on one line (the full text goes in a title attribute). */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
