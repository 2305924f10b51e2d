import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { redirectWithToast } from "~/server/upstream/session.server";
import { PAGE_NOT_FOUND } from "~/features/shell/notices";

/** Any unknown path goes to the index, which says so on arrival (rule redirect-says-why). */
export const loader = ({ request }: LoaderFunctionArgs) =>
  redirectWithToast(request, "/", { kind: "info", message: PAGE_NOT_FOUND });
export const action = () => redirect("/");
