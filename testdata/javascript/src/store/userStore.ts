import { BaseStore } from "./base";
import { User } from "../models";

export class UserStore extends BaseStore<User> {
  validate(user: User): boolean {
    return user.id !== "";
  }

  add(user: User): void {
    if (!this.validate(user)) {
      throw new Error("invalid user");
    }
    this.items.set(user.id, user);
    this.log("added " + user.displayName());
  }
}

export default UserStore;
