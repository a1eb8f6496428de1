// The last lines a program wrote to stderr, for the error that says why it stopped.

const KEEP_CHARS = 2000;

export class StderrTail {
  private text = '';

  add(chunk: string | Buffer): void {
    this.text = (this.text + String(chunk)).slice(-KEEP_CHARS);
  }

  /** The last few lines, one line each, or '' when it wrote nothing. */
  lines(count = 5): string {
    return this.text.trim().split('\n').slice(-count).join(' | ');
  }
}
