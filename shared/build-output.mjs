/**
 * Where the build writes, in one place: `remix.config.js` builds there, `scripts/build-server.mjs`
 * bundles there, and everything that reads the build (server.ts, app/server/stylesheets.server.ts, scripts/,
 * bench/, the tests that read the build) takes its paths from here, so a later compiler move touches this file.
 *
 * Paths are relative to the project's root, the working directory of every process that reads them (`npm start`,
 * the Dockerfile's `node dist/server.js`, the test and bench runners). Plain JavaScript so that the Node scripts
 * (`scripts/*.mjs`, `remix.config.js`) import it as they are; shared/ because app/ may import only from there.
 */

/** Remix's server build (route modules and entry.server), loaded by server.ts. */
export const SERVER_BUILD = "build/index.js";
/** esbuild's metafiles of `remix build`, written beside the server build (the browser's and the server's). */
export const BROWSER_METAFILE = "build/metafile.js.json";
export const SERVER_METAFILE = "build/metafile.server.json";

/** The browser's assets (route chunks, stylesheets, the manifest), served under ASSETS_URL. */
export const ASSETS_DIR = "public/build";
export const ASSETS_URL = "/build/";
/** The other files of public/ (favicon, sample bill), served at the site's root. */
export const PUBLIC_DIR = "public";

/** The production web server and the embedded api's worker (esbuild, scripts/build-server.mjs). */
export const SERVER_BUNDLE_DIR = "dist";
export const WEB_SERVER = "dist/server.js";
export const API_WORKER = "dist/api-worker.js";

/** Every output folder of `npm run build` (a path inside one exists only after a build). */
export const BUILD_OUTPUTS = [`${ASSETS_DIR}/`, "build/", `${SERVER_BUNDLE_DIR}/`];

/**
 * The file of an asset URL (`/build/…`), relative to the project's root; undefined for any other URL.
 * @param {string} url
 * @returns {string | undefined}
 */
export function assetFile(url) {
  if (!url.startsWith(ASSETS_URL)) return undefined;
  return `${ASSETS_DIR}/${url.slice(ASSETS_URL.length)}`;
}

/**
 * The URL of a file of ASSETS_DIR, as esbuild's metafile
 * names it; undefined for a file outside it.
 * @param {string} file
 * @returns {string | undefined}
 */
export function assetUrl(file) {
  if (!file.startsWith(`${ASSETS_DIR}/`)) return undefined;
  return `${ASSETS_URL}${file.slice(ASSETS_DIR.length + 1)}`;
}

/**
 * Whether a file name of ASSETS_DIR is the build's asset manifest (`manifest-<hash>.js`).
 * @param {string} name
 */
export const isAssetsManifest = (name) => /^manifest-[\w-]+\.js$/.test(name);
