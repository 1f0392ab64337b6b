// The memory the exchanges in flight hold (their heads and the copies of their bodies kept for checking), shared by
// every connection: without it each stalled upload could hold a whole --max-body, and many of them all the memory.
// Each exchange holds a reservation, taken when its head arrives (for a declared length, all of it at once) and
// grown as a body of unknown length arrives; once the exchange is over it is handed to the check queue, which has
// bounds of its own, and the reservation is given back.

export class MemoryBudget {
  used = 0;

  constructor(readonly limit: number) {}
}

export class Reservation {
  private held = 0;

  constructor(private readonly budget: MemoryBudget) {}

  /** Holds `bytes` in all (never less than already held); false, holding nothing more, when the budget is spent. */
  cover(bytes: number): boolean {
    if (bytes <= this.held) return true;
    if (this.budget.used + bytes - this.held > this.budget.limit) return false;
    this.budget.used += bytes - this.held;
    this.held = bytes;
    return true;
  }

  release(): void {
    this.budget.used -= this.held;
    this.held = 0;
  }
}
