/**
 * A Map that asks a factory for a key it does not hold and keeps what the factory made. The
 * stand-in's thousands of generated guilds live in such maps: a guild, channel, member or user is
 * built the first time something looks it up, so an untouched world costs almost nothing.
 */
export class LazyMap<K, V> extends Map<K, V> {
  private factory: ((key: K) => V | undefined) | null = null;

  /** Sets (or clears) the factory consulted for keys the map does not hold. */
  setFactory(factory: ((key: K) => V | undefined) | null): void {
    this.factory = factory;
  }

  override get(key: K): V | undefined {
    const held = super.get(key);
    if (held !== undefined || this.factory === null) return held;
    const made = this.factory(key);
    if (made !== undefined) super.set(key, made);
    return made;
  }

  override has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  /** True when the key was already made (no factory call). */
  holds(key: K): boolean {
    return super.has(key);
  }
}
