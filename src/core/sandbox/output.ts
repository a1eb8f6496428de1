// A command's output as the model gets it: bounded memory however much a command prints, and when there was more
// than fits, the beginning and the end (where commands put their errors and summaries) with a note of what was cut
// in between and how to see the rest. Pure.

/** Collects output bytes; `take` returns what came since the last take, capped, and starts over. */
export class OutputBuffer {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private pending = 0;

  /** `maxBytes`: the most one `take` returns (half from the beginning, half from the end). */
  constructor(maxBytes: number) {
    this.headLimit = Math.ceil(maxBytes / 2);
    this.tailLimit = Math.floor(maxBytes / 2);
  }

  /** Bytes received since the last take. */
  get pendingBytes(): number {
    return this.pending;
  }

  push(chunk: Buffer): void {
    this.pending += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const part = rest.subarray(0, this.headLimit - this.headBytes);
      this.head.push(part);
      this.headBytes += part.length;
      rest = rest.subarray(part.length);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    // Drop whole chunks from the front while what stays still covers the tail.
    while (this.tail.length > 1 && this.tailBytes - this.tail[0].length >= this.tailLimit) this.tailBytes -= this.tail.shift()!.length;
  }

  /** The output since the last take, as text for the model. */
  take(): { text: string; bytes: number } {
    const head = Buffer.concat(this.head);
    const tailAll = Buffer.concat(this.tail);
    const tail = tailAll.subarray(Math.max(0, tailAll.length - this.tailLimit));
    const bytes = this.pending;
    this.head = [];
    this.headBytes = 0;
    this.tail = [];
    this.tailBytes = 0;
    this.pending = 0;
    if (head.length + tail.length >= bytes) return { text: cleanText(Buffer.concat([head, tail]).toString('utf8')), bytes };
    const shownHead = head.subarray(0, completeUtf8End(head));
    const shownTail = tail.subarray(utf8Start(tail));
    const cut = bytes - shownHead.length - shownTail.length;
    const note =
      `\n[… ${formatBytes(cut)} of output cut here; shown are the first ${formatBytes(shownHead.length)} and the last ` +
      `${formatBytes(shownTail.length)} of ${formatBytes(bytes)}. To see everything, redirect the output to a file in your folder ` +
      '(command > out.txt 2>&1) and search or read that file.]\n';
    return { text: cleanText(shownHead.toString('utf8')) + note + cleanText(shownTail.toString('utf8')), bytes };
  }
}

// Colour and cursor sequences (CSI, OSC) mean nothing to a model; programs that ignore NO_COLOR still send them.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g; // eslint-disable-line no-control-regex

/** Output text without terminal escape sequences and NUL bytes. */
export function cleanText(text: string): string {
  return text.replace(ANSI, '').replace(/\0/g, '');
}

/** Length of `buf` without an incomplete UTF-8 sequence at its end. */
export function completeUtf8End(buf: Buffer): number {
  for (let back = 1; back <= Math.min(4, buf.length); back++) {
    const byte = buf[buf.length - back];
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back for the lead byte
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? buf.length - back : buf.length;
  }
  return buf.length;
}

/** Offset of the first byte in `buf` that starts a UTF-8 character (skips a cut character's continuation bytes). */
export function utf8Start(buf: Buffer): number {
  let i = 0;
  while (i < Math.min(3, buf.length) && (buf[i] & 0xc0) === 0x80) i++;
  return i;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(1)} GB`;
}
