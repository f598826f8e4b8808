export * from "./faq";
export * from "./merchant";
export * from "./roles";
export * from "./rules";
export * from "./setting";
