/**
 * The interactions a process is handling, as a linked list rather than a Map or a Set (issue 23).
 *
 * A Map or Set that outlives a few collections has its table in V8's old generation, and from then
 * on each time the table is rebuilt (to grow, to shrink, or to drop deleted entries: every few
 * additions and deletions when entries come and go) the new one is allocated there too. One entry
 * added and deleted per interaction thus leaves some 50-150 bytes of old-generation garbage each
 * time, for the full collections to find: under a burst, most of what the bot left in the old
 * generation. A list node is allocated with the interaction and dies with it, young.
 */
export interface InFlightNode<T> {
  readonly value: T;
  /** @internal */
  prev: InFlightNode<T> | null;
  /** @internal */
  next: InFlightNode<T> | null;
  /** @internal */
  listed: boolean;
}

export class InFlight<T> {
  private head: InFlightNode<T> | null = null;
  private tail: InFlightNode<T> | null = null;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds `value` at the end; the node removes it again. */
  add(value: T): InFlightNode<T> {
    const node: InFlightNode<T> = { value, prev: this.tail, next: null, listed: true };
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
    this.count++;
    return node;
  }

  /** Removes what `add` listed; a second removal changes nothing. */
  remove(node: InFlightNode<T>): void {
    if (!node.listed) return;
    node.listed = false;
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    node.prev = node.next = null;
    this.count--;
  }

  /** The values, oldest first. */
  values(): T[] {
    const values: T[] = [];
    for (let node = this.head; node; node = node.next) values.push(node.value);
    return values;
  }

  /** The newest value that `matches`, if any. */
  findLast(matches: (value: T) => boolean): T | undefined {
    for (let node = this.tail; node; node = node.prev) if (matches(node.value)) return node.value;
    return undefined;
  }
}
