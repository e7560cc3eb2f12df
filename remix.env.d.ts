/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/cloudflare" />

// Single Fetch types for loaders/actions (future.v3_singleFetch in remix.config.js).
declare module "@remix-run/server-runtime" {
  interface Future {
    v3_singleFetch: true;
  }
}
export {};
