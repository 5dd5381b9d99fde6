/** Something that can be persisted. */
export interface Entity {
  id: string;
  save(): Promise<void>;
}

/** A registered user of the shop. */
export class User implements Entity {
  constructor(public id: string, private name: string) {}

  async save(): Promise<void> {
    console.log("saving", this.id);
  }

  displayName(): string {
    return this.name.trim();
  }
}
