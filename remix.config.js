import { flatRoutes } from "remix-flat-routes";

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Classic compiler: builds the Remix server bundle that workers/app.ts imports;
  // wrangler then bundles the Worker (so workerd runs the real thing in dev, tests and prod).
  serverBuildPath: "build/server/index.js",
  assetsBuildDirectory: "public/build",
  publicPath: "/build/",
  serverConditions: ["workerd", "worker", "browser"],
  serverMainFields: ["browser", "module", "main"],
  serverModuleFormat: "esm",
  serverPlatform: "neutral",
  serverDependenciesToBundle: [],
  serverMinify: false,
  tailwind: false,
  postcss: true,
  // Routes live in folders by access and area (decision 032, remix-flat-routes' `+` folders): Remix's own convention
  // reads nothing, flatRoutes reads app/routes. Tests and the pinned route table sit beside the routes.
  ignoredRouteFiles: ["**/*"],
  routes: async (defineRoutes) =>
    flatRoutes("routes", defineRoutes, { ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", "**/*.snapshot.txt"] }),
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
