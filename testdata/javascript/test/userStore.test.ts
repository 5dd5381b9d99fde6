import { describe, it, expect } from "vitest";
import { UserStore } from "../src/store/userStore";
import { User } from "../src/models/user";
import { createUser } from "../src/api/handlers";

describe("UserStore", () => {
  let store: UserStore;

  beforeEach(() => {
    store = new UserStore();
  });

  it("adds a valid user", () => {
    const make = (name: string) => new User("1", name);
    store.add(make("ada"));
    expect(store.find("1")).toBeDefined();
  });

  it("creates users through the API", async () => {
    const u = await createUser(store, "Grace");
    expect(u.displayName()).toBe("grace");
  });
});
