export { User } from "./user";
export type { Entity } from "./user";
export * from "./order";
