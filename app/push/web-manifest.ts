/**
 * The installable app's web manifest (decision 049). Colours are the theme tokens of app/tailwind.css
 * (`--color-brand-500` for the bar, `--color-canvas` behind the splash; service-worker.node.test.ts keeps them equal).
 */
export const THEME_COLOR = "#f59e0b";
export const BACKGROUND_COLOR = "#f8fafc";

export const WEB_MANIFEST = {
  name: "Helio",
  short_name: "Helio",
  description: "Solar Sales Communication Platform",
  id: "/",
  start_url: "/",
  scope: "/",
  display: "standalone",
  orientation: "portrait",
  theme_color: THEME_COLOR,
  background_color: BACKGROUND_COLOR,
  icons: [
    { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
    { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
  ],
} as const;
