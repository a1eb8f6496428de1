// Server-sent events as the model servers write them (`event:` and `data:` lines, a blank line after each event):
// parsed to JSON for the recording proxy's log, and written back after a rewrite.

export interface SseEvent {
  /** The `event:` line (Anthropic names every event; OpenAI names none). */
  event?: string;
  /** The `data:` payload as JSON, or the text when it is not JSON (OpenAI's closing `[DONE]`). */
  data: unknown;
}

export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.replace(/\r\n/g, '\n').split(/\n\n+/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length === 0) continue;
    const raw = data.join('\n');
    let parsed: unknown = raw;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // `[DONE]` and anything else that is not JSON stays text.
    }
    events.push({ ...(event ? { event } : {}), data: parsed });
  }
  return events;
}

export function writeSse(events: readonly SseEvent[]): string {
  return events.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`).join('');
}
