import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { precompressPlugin } from "./src/server/static/precompress";
import { guestPermissionsPlugin } from "./src/server/static/guest-permissions";
import { antdStylesPlugin } from "./src/server/static/antd-styles";

// The browser build of casbin needs csv-parse's browser entry: the Node one
// references Buffer and leaves a blank page in a real browser.
export default defineConfig(() => ({
  // precompressPlugin: .br/.gz of the hashed assets, served by Accept-Encoding (src/server/app.ts).
  // guestPermissionsPlugin: the anonymous visitor's page rules, worked out by casbin at build time
  // for the light login pages (src/client/login). antdStylesPlugin: antd's styles as a static CSS file
  // built under the app's theme, so pages do not generate them at run time (src/server/static/antd-styles.ts).
  plugins: [
    react(),
    antdStylesPlugin(),
    precompressPlugin(),
    guestPermissionsPlugin(fileURLToPath(new URL(".", import.meta.url))),
  ],
  resolve: {
    alias: {
      "csv-parse/sync": "csv-parse/browser/esm/sync",
      // The same in the build and in tests (vitest), so that tests run the code the browser runs.
      // One HTTP client in the pages (src/client/request.ts): simple-rest's axios is an inert stand-in there.
      axios: fileURLToPath(new URL("./src/client/no-axios.ts", import.meta.url)),
      // refine-antd's MarkdownField (unused here) would ship micromark on every admin page: stand-ins.
      "react-markdown": fileURLToPath(new URL("./src/client/no-markdown.tsx", import.meta.url)),
      "remark-gfm": fileURLToPath(new URL("./src/client/no-gfm.ts", import.meta.url)),
    },
  },
  build: { outDir: "dist/client", chunkSizeWarningLimit: 2000, manifest: true },
  server: {
    port: 5173,
    // changeOrigin false keeps the browser's Host, so the server's same-origin check
    // (Origin host == Host) passes for unsafe requests made through the dev server.
    proxy: { "/Backend": { target: "http://127.0.0.1:8080", changeOrigin: false } },
  },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/api/**/*.test.ts", "tests/client/**/*.test.{ts,tsx}"],
    server: { deps: { inline: ["@refinedev/react-router"] } },
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: "forks",
  },
}));
