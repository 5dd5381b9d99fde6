/** A keyed in-memory collection. */
export abstract class BaseStore<T extends { id: string }> {
  protected items = new Map<string, T>();

  /** Looks an item up by id. */
  find(id: string): T | undefined {
    return this.items.get(id);
  }

  protected log(message: string): void {
    console.log(`[store] ${message}`);
  }

  abstract validate(item: T): boolean;
}
