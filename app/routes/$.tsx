import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { pageNotFound } from "~/features/shell/shell.server";

/** Any unknown path goes to the index, which says so on arrival (rule redirect-says-why). */
export const loader = ({ request }: LoaderFunctionArgs) => pageNotFound(request);
export const action = () => redirect("/");
