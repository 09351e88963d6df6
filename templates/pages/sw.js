// Tarabish service worker {{ version }}: keeps the page shell on the phone so the score-pad
// opens with no signal. Writes are never handled here: the score-pad's outbox keeps them.
const CACHE = "tarabish-shell-{{ version }}";
const SHELL = [
  "{% url 'scoring:offline' %}",
{% for url in shell_files %}  "{{ url }}",
{% endfor %}];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("tarabish-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

async function networkFirst(request, fallbackUrl) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(request, { ignoreVary: true });
    if (cached) return cached;
    if (fallbackUrl) {
      const fallback = await cache.match(fallbackUrl);
      if (fallback) return fallback;
    }
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

// A page asks to be kept (the score-pad it was opened on), so it opens again with no signal.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep-page" || !data.url) return;
  const reply = event.ports && event.ports[0];
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.add(new Request(data.url, { credentials: "same-origin" })))
      .then(() => reply && reply.postMessage({ kept: true }))
      .catch(() => reply && reply.postMessage({ kept: false })),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("{{ static_prefix }}")) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(request, "{% url 'scoring:offline' %}"));
  } else if (url.pathname.startsWith("/api/v1/games/")) {
    event.respondWith(networkFirst(request, null));
  }
});
