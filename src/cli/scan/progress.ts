/**
 * Progress of a batch on stderr: a redrawn bar with rate and ETA on a terminal, one plain line per
 * finished file otherwise (logs, CI), so the output stays readable either way.
 */
export class Progress {
  private done = 0;
  private readonly started = Date.now();
  private lastDraw = 0;

  constructor(
    private readonly total: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly tty = Boolean(process.stderr.isTTY),
  ) {}

  /** One file finished: `note` is its outcome (level and score, or the error). */
  tick(file: string, note: string): void {
    this.done++;
    const elapsed = (Date.now() - this.started) / 1000;
    const rate = elapsed > 0 ? this.done / elapsed : 0;
    const eta = rate > 0 ? (this.total - this.done) / rate : 0;
    const stats = `${rate.toFixed(2)} files/s, ETA ${formatSeconds(eta)}`;
    if (!this.tty) {
      this.out.write(`[${this.done}/${this.total}] ${file}: ${note} (${stats})\n`);
      return;
    }
    const now = Date.now();
    if (now - this.lastDraw < 100 && this.done < this.total) return;
    this.lastDraw = now;
    const width = 30;
    const filled = Math.round((this.done / Math.max(1, this.total)) * width);
    const pct = Math.round((this.done / Math.max(1, this.total)) * 100);
    const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.done}/${this.total} ${pct}% ${stats}`;
    this.out.write(`\r\x1b[2K${bar}`);
    if (this.done === this.total) this.out.write('\n');
  }
}

export function formatSeconds(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '?';
  if (s < 60) return `${Math.round(s)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
