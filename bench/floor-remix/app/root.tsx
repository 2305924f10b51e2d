import { Links, Meta, Outlet, Scripts } from "@remix-run/react";
import { headChildren } from "./privacy.server";

export default function App() {
  return (
    <html lang="en">
      <head>
        {headChildren}
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <Scripts />
      </body>
    </html>
  );
}
