// Group commit (used for grouped store writes and queue sends): callers that arrive while earlier writes are still in flight are written together in
// the next group, and each caller is answered once its own item is written. With one caller at a time
// (a Lambda instance serves one request) every group holds one item and nothing waits; under load the
// groups grow by themselves, so round trips per item fall exactly when they matter.

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** Writes one group; may return one error (or undefined) per item for partial failures. */
export type GroupWriter<T> = (items: T[]) => Promise<Array<Error | undefined> | void>;

export class GroupCommit<T> {
  private readonly waiting: Waiting<T>[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly write: GroupWriter<T>,
    private readonly maxGroup: number,
    private readonly maxInFlight: number,
  ) {}

  /** Nothing waiting and nothing in flight. */
  get idle(): boolean {
    return this.inFlight === 0 && this.waiting.length === 0 && !this.scheduled;
  }

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      // Callers of the same turn of the event loop join one group.
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.waiting.length > 0) {
      const group = this.waiting.splice(0, this.maxGroup);
      this.inFlight += 1;
      this.write(group.map((w) => w.item))
        .then(
          (errors) => group.forEach((w, i) => (errors?.[i] ? w.reject(errors[i]!) : w.resolve())),
          (error: unknown) => group.forEach((w) => w.reject(error instanceof Error ? error : new Error(String(error)))),
        )
        .finally(() => {
          this.inFlight -= 1;
          this.pump();
        });
    }
  }
}
