/**
 * The bare floor of the CPU bench: express and React's `renderToString` of the same HTML as the product's privacy
 * page, nothing else (no helmet, no session, no compression, no logging, no Remix). The page's HTML (FLOOR_HTML,
 * a file the bench saved from the product) is turned into a React element tree once; every `GET /` renders that
 * tree again, so each answer costs what React costs to render the page's elements. Run with NODE_ENV=production.
 */
import fs from "node:fs";
import express from "express";
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { htmlToElements } from "./html-to-react";

const html = fs.readFileSync(process.env.FLOOR_HTML!, "utf8");
const tree: ReactElement = htmlToElements(html);

const app = express();
app.disable("x-powered-by");
app.get("/", (_req, res) => {
  res.type("html").send(`<!DOCTYPE html>${renderToString(tree)}`);
});
const server = app.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
