import { User } from "./user";

export enum Status {
  Open,
  Paid = "paid",
}

export type OrderLine = { sku: string; qty: number };

export class Order {
  lines: OrderLine[] = [];
  status: Status = Status.Open;

  constructor(readonly owner: User) {}

  validate(): boolean {
    return this.lines.length > 0;
  }

  ownerName(): string {
    return this.owner.displayName();
  }
}
