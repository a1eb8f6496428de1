// A circuit breaker per MCP server, as upstream: after `maxFailures` consecutive failures (transport errors,
// timeouts, crashes; not a tool reporting an error) the server is skipped for `resetMs`, doubled on every trip that
// follows a failed trial call, up to ×8. After the pause one trial call goes through: success closes the breaker,
// failure opens it again for longer.

export interface CircuitBreakerOptions {
  maxFailures: number;
  resetMs: number;
  /** Largest multiplier of `resetMs` (upstream: ×8). */
  maxBackoffFactor: number;
}

export const DEFAULT_BREAKER: CircuitBreakerOptions = { maxFailures: 3, resetMs: 30_000, maxBackoffFactor: 8 };

export class CircuitBreaker {
  private failures = 0;
  private trips = 0;
  private openUntil = 0;

  constructor(private readonly options: CircuitBreakerOptions = DEFAULT_BREAKER, private readonly now: () => number = Date.now) {}

  /** Milliseconds until calls are allowed again; 0 = allowed. */
  blockedForMs(): number {
    return Math.max(0, this.openUntil - this.now());
  }

  get isOpen(): boolean {
    return this.blockedForMs() > 0;
  }

  success(): void {
    this.failures = 0;
    this.trips = 0;
    this.openUntil = 0;
  }

  /** Records a failure; true when it opened the breaker. */
  failure(): boolean {
    this.failures++;
    // A failed trial after a pause reopens at once; otherwise the breaker opens at maxFailures.
    if (this.failures < this.options.maxFailures && this.trips === 0) return false;
    const factor = Math.min(this.options.maxBackoffFactor, 2 ** this.trips);
    this.trips++;
    this.failures = 0;
    this.openUntil = this.now() + this.options.resetMs * factor;
    return true;
  }
}
