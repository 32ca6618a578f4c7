// The page's service worker (served as /sw.js, for the whole site). It does one thing:
// "your turn" notifications, which a phone's browser shows only through a worker, and a
// tap on one brings back the table's tab (or opens the table). It handles no request:
// the table is live, nothing is kept for offline play, every request goes to the server
// as it would without it.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/** A table's path only (/t/ID), of this site: a notification opens nothing else. */
const tablePath = (url) => (typeof url === "string" && /^\/t\/[0-9a-f]{1,32}$/.test(url) ? url : "/");

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = tablePath(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of open) {
      if (new URL(client.url).pathname === path && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(path);
  })());
});
