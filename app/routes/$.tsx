import { redirect } from "@remix-run/node";

/** Any unknown path goes to the index. */
export const loader = () => redirect("/");
export const action = () => redirect("/");
