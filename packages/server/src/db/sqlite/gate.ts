// The SQLite connection's turn-taking. node:sqlite runs each statement synchronously, so a
// statement never interleaves with another; an async transaction does (it awaits between its
// statements). The gate lets one transaction at a time hold the connection; a statement asked for
// while a transaction holds it, or waits for it, runs when its turn comes, in order of arrival.
// When nothing holds or waits, a statement runs at once (the fast path: no queue, no tick).

/** A waiter, and whether it is a transaction (which may share the open one's commit). */
type Waiter = { run: () => void; transaction: boolean };

export class Gate {
  #held = false;
  #queue: Waiter[] = [];

  /** Nothing holds the gate and nothing waits for it. */
  get free(): boolean {
    return !this.#held && this.#queue.length === 0;
  }

  get held(): boolean {
    return this.#held;
  }

  /** Statements and transactions waiting for their turn. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** The next to get the gate is a transaction. */
  get nextIsTransaction(): boolean {
    return this.#queue[0]?.transaction === true;
  }

  /** Runs `work` (synchronous) now if the gate is free, else when its turn comes. */
  whenFree<T>(work: () => T): Promise<T> {
    if (this.free) {
      try {
        return Promise.resolve(work());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({
        transaction: false,
        run: () => {
          try {
            resolve(work());
          } catch (error) {
            reject(error);
          }
        },
      });
    });
  }

  /** Takes the gate: at once (returns undefined) when free, else the promise of its turn. */
  acquire(transaction = false): Promise<void> | undefined {
    if (this.free) {
      this.#held = true;
      return undefined;
    }
    return new Promise<void>((resolve) => {
      this.#queue.push({
        transaction,
        run: () => {
          this.#held = true;
          resolve();
        },
      });
    });
  }

  /** Gives the gate up and lets the waiters in, in order, until one of them takes it. */
  release(): void {
    this.#held = false;
    while (!this.#held && this.#queue.length > 0) (this.#queue.shift() as Waiter).run();
  }
}
