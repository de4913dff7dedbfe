/** At most `size` holders at once; a freed slot is handed straight to the next waiter, in order. */
export class Slots {
  private active = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /**
   * Wait for a free slot; true once it is held. With `signal`, a wait it ends gives up its place and returns
   * false (no slot is held then).
   */
  async acquire(signal?: AbortSignal): Promise<boolean> {
    if (this.active < this.size) {
      this.active++;
      return true;
    }
    if (signal?.aborted) return false;
    return new Promise<boolean>((resolve) => {
      const take = (): void => {
        signal?.removeEventListener('abort', leave);
        resolve(true);
      };
      const leave = (): void => {
        const i = this.waiters.indexOf(take);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(false);
      };
      this.waiters.push(take);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  /** Free the slot taken by `acquire`. */
  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.active--;
  }
}
