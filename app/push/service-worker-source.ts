/**
 * The service worker served at /sw.js (decision 049), as its source text: it runs in the browser, not in our bundle,
 * and service-worker.node.test.ts runs this very text against a fake worker scope to check its fetch routing.
 *
 * What it keeps: only the static build assets (/build/, hashed), the icons and the offline page — never a document,
 * loader data, /api JSON or anything else that can carry a signed-in user's data. Navigations go to the network and
 * fall back to the offline page; everything else it leaves to the browser. Its caches go on logout: the logout
 * response sends `Clear-Site-Data: "cache"`, and the page posts `{ type: "clear-caches" }` to it.
 * Plain ES2017 in a string: no template placeholders (`$` + `{`) inside.
 */
export const SERVICE_WORKER_SOURCE = String.raw`"use strict";
var CACHE = "helio-static-v1";
var OFFLINE_URL = "/offline.html";
var PRECACHE = [OFFLINE_URL, "/icons/icon-192.png", "/favicon.svg"];

/** "static": cache first; "navigate": network, offline page on failure; "network": not ours to answer. */
function routeOf(request) {
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return "network";
  if (request.mode === "navigate") return "navigate";
  if (url.search !== "") return "network";
  var p = url.pathname;
  if (p.indexOf("/build/") === 0 || p.indexOf("/icons/") === 0 || p === "/favicon.svg" || p === OFFLINE_URL) {
    return "static";
  }
  return "network";
}

/** A response that may be kept: a plain same-origin 200 that does not say no-store or private. */
function cacheable(res) {
  var cc = (res.headers.get("Cache-Control") || "").toLowerCase();
  return res.status === 200 && res.type === "basic" && !res.redirected && !/no-store|private/.test(cc);
}

function clearCaches() {
  return caches.keys().then(function (keys) {
    return Promise.all(keys.map(function (k) { return caches.delete(k); }));
  });
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(PRECACHE); }).then(function () {
    return self.skipWaiting();
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var route = routeOf(request);
  if (route === "navigate") {
    // Never stored: a page is a signed-in user's data. Offline, the static offline page stands in.
    event.respondWith(fetch(request).catch(function () {
      return caches.match(OFFLINE_URL).then(function (hit) {
        return hit || new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain" } });
      });
    }));
    return;
  }
  if (route !== "static") return;
  event.respondWith(caches.match(request).then(function (hit) {
    if (hit) return hit;
    return fetch(request).then(function (res) {
      if (cacheable(res)) {
        var copy = res.clone();
        event.waitUntil(caches.open(CACHE).then(function (c) { return c.put(request, copy); }));
      }
      return res;
    });
  }));
});

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "clear-caches") event.waitUntil(clearCaches());
});

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  event.waitUntil(self.registration.showNotification(data.title || "Helio", {
    body: data.body || "",
    tag: data.tag || undefined,
    renotify: !!data.tag,
    icon: "/icons/icon-192.png",
    badge: "/icons/icon-192.png",
    data: { url: data.url || "/" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (list) {
    for (var i = 0; i < list.length; i++) {
      if ("focus" in list[i] && "navigate" in list[i]) return list[i].navigate(target.href).then(function (c) { return c && c.focus(); });
    }
    return self.clients.openWindow(target.href);
  }));
});
`;
