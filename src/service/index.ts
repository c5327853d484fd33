export * from "./types.js";
export * as schemas from "./schemas.js";
