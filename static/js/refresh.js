// Parts of pages that keep themselves up to date (a game's and a match's score, live brackets
// and standings, the hall's big screen, the director's day): every element with
// data-refresh-url is fetched again as soon as the server says that what it shows changed, and
// redrawn only when the server sends something new.
//
// Told by push: the element's data-watch names what it shows ("game/12", "tournament/fall-cup",
// several with spaces; an element inside it with data-watch-key adds one, such as a match's game
// under way), each watched over a WebSocket at /ws/watch/<topic>/<key>/, whose "changed" message
// says only that something changed. Where no socket holds (a proxy without WebSockets, no
// signal), the region is fetched every data-refresh-seconds (default 20) instead, with the
// ETag of what it shows: the server answers 304, and nothing, until something changed.
//
// A region where someone has started filling in a form (a director's ruling) is not redrawn
// until that form is sent or emptied again, even once they have looked away from it.
import { edited } from "./forms.js";

const regions = document.querySelectorAll("[data-refresh-url]");

function started(region) {
  return [...region.querySelectorAll("form")].some(edited);
}

// What a region shows, to compare with what the server sends: both as parsed by the page, so
// the first answer is not taken for news, and without the forms' CSRF token, which is masked
// anew at every render though it stands for the same secret.
function shown(node) {
  const copy = node.cloneNode(true);
  (copy.content || copy).querySelectorAll("input[name=csrfmiddlewaretoken]").forEach((input) => {
    input.removeAttribute("value");
  });
  return copy.innerHTML.trim();
}

async function refresh(region) {
  if (!navigator.onLine || document.hidden) {
    region.dataset.missed = "1"; // looked at again once the page is in view
    return;
  }
  // never redraw under someone typing or choosing (a director's ruling, a followed team)
  if (region.contains(document.activeElement) && document.activeElement !== document.body) return;
  if (started(region)) return;
  delete region.dataset.missed;
  try {
    const headers = { "X-Requested-With": "refresh" };
    if (region.dataset.etag) headers["If-None-Match"] = region.dataset.etag;
    const response = await fetch(region.dataset.refreshUrl, {
      credentials: "same-origin",
      cache: "no-store",
      headers,
    });
    if (response.status === 304) return; // nothing new since what is shown
    // a refusal, or a redirect to signing in once the session has ended: keep what is shown
    if (!response.ok || response.redirected) return;
    const etag = response.headers.get("ETag");
    if (etag) region.dataset.etag = etag;
    const sent = document.createElement("template"); // inert: nothing in it loads or runs
    sent.innerHTML = await response.text();
    if (shown(sent) !== shown(region)) {
      region.replaceChildren(sent.content);
      region.dataset.refreshedAt = new Date().toISOString();
      region.dispatchEvent(new CustomEvent("refreshed", { bubbles: true }));
      watchAll(region); // a game started since: watched too
    }
  } catch {
    // no signal: keep showing what we have
  }
}

// ------------------------------------------------------------------ told by push
const sockets = new Map(); // "topic/key" -> {socket, regions: Set, open, wait}

function soon(region) {
  // several messages at once (a hand, then the match it ended): one fetch
  clearTimeout(region.refreshTimer);
  region.refreshTimer = setTimeout(() => refresh(region), 100);
}

function open(key) {
  const entry = sockets.get(key);
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  let socket;
  try {
    socket = new WebSocket(`${scheme}//${window.location.host}/ws/watch/${key}/`);
  } catch {
    return; // no WebSockets here: polling stands in
  }
  entry.socket = socket;
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.event === "watching") {
      // what changed since the page was drawn (or while the socket was down) is fetched now
      entry.open = true;
      entry.wait = 1000;
      entry.regions.forEach(soon);
    } else if (message.event === "changed") {
      entry.regions.forEach(soon);
    }
  });
  socket.addEventListener("close", (event) => {
    entry.open = false;
    if (event.code === 4404) return; // not to be watched (gone, or not ours): polling only
    // try again, less and less often, while the page is open
    setTimeout(() => open(key), entry.wait);
    entry.wait = Math.min(entry.wait * 2, 30000);
  });
}

function watch(key, region) {
  if (!/^[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+$/.test(key)) return;
  let entry = sockets.get(key);
  if (!entry) {
    entry = { socket: null, regions: new Set(), open: null, wait: 1000 };
    sockets.set(key, entry);
    entry.regions.add(region);
    open(key);
  } else {
    entry.regions.add(region);
  }
}

function watchAll(region) {
  const keys = (region.dataset.watch || "").split(/\s+/).filter(Boolean);
  region.querySelectorAll("[data-watch-key]").forEach((el) => keys.push(el.dataset.watchKey));
  keys.forEach((key) => watch(key, region));
}

function heard(region) {
  // every socket this region listens on is open: push tells it, no need to poll
  const entries = [...sockets.values()].filter((entry) => entry.regions.has(region));
  return entries.length > 0 && entries.every((entry) => entry.open);
}

regions.forEach((region) => {
  if ("WebSocket" in window) watchAll(region);
  const seconds = Number(region.dataset.refreshSeconds || 20);
  setInterval(() => {
    if (!heard(region)) refresh(region);
  }, seconds * 1000);
});
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) regions.forEach((region) => { if (region.dataset.missed) refresh(region); });
});
