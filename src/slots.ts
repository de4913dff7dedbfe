/** At most `size` holders at once; a freed slot is handed straight to the next waiter, in order. */
export class Slots {
  private active = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** Wait for a free slot. */
  async acquire(): Promise<void> {
    if (this.active < this.size) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Free the slot taken by `acquire`. */
  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.active--;
  }
}
