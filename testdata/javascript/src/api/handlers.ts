import UserStore from "@/store/userStore";
import { User, Order } from "../models";
import * as fmt from "../util/format";
import { capitalize } from "lodash";
import axios from "axios";

const Bus = require("../legacy/emitter");

const bus = new Bus();

/** Creates a user and announces it. */
export async function createUser(store: UserStore, name: string): Promise<User> {
  const user = new User(name.toLowerCase(), fmt.title(name));
  store.add(user);
  bus.publish(user);
  return user;
}

export function findUser(id: string) {
  const store = new UserStore();
  const found = store.find(id);
  return found ? capitalize(found.displayName()) : null;
}

export function checkout(order: Order, items: any[]) {
  items.forEach((item) => item.validate());
  return axios.post("/checkout", order);
}

export const routes = {
  "/users": createUser,
};

export function register(router: { on(path: string, h: Function): void }) {
  router.on("/users/:id", findUser);
}
