// The outbox: writes to the API that have not reached the server yet, kept on the phone so no
// signal (or a reload, or a flat battery) loses nothing. Every entry carries its
// Idempotency-Key from the moment it is created, so sending it twice stores it once.
import { indexedDbStore } from "./outbox-store.js";

export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  if (match) return decodeURIComponent(match[1]);
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

// Whether an answer means "not now": the server is busy, or the first copy sent with this key
// is still being stored. The entry is sent again later under the same key.
export function tryAgainLater(status, data) {
  return status >= 500 || status === 429 || (!!data && data.code === "idempotency_key_in_flight");
}

export class Outbox extends EventTarget {
  // ``store``: where entries are kept (IndexedDB on the phone); ``fetch`` sends a request and
  // ``csrf`` gives the page's CSRF token (the browser's own, unless told otherwise).
  constructor(scope, { store = indexedDbStore, fetch = globalThis.fetch.bind(globalThis), csrf = csrfToken } = {}) {
    super();
    this.scope = scope;
    this.store = store;
    this.fetch = fetch;
    this.csrf = csrf;
    this.sending = false;
  }

  // Send again whenever the signal returns; some networks come back without an "online"
  // event, so try now and then too.
  keepSending({ every = 15000 } = {}) {
    window.addEventListener("online", () => this.flush());
    setInterval(() => { if (navigator.onLine) this.flush(); }, every);
  }

  async pending() {
    const all = await this.store.all(this.scope);
    return all.sort((a, b) => a.created - b.created);
  }

  // ``form``: what the page needs to put the request back in its form if it is refused.
  async add({ url, method = "POST", body, label, headers = {}, form = null }) {
    const entry = {
      key: newKey(), scope: this.scope, url, method, body, label, headers, form,
      created: Date.now(), error: null,
    };
    await this.store.put(entry);
    this.changed();
    return entry;
  }

  async remove(key) {
    await this.store.delete(key);
    this.changed();
  }

  // A refused entry put right: it keeps its place in the queue (its ``created``), under a new
  // Idempotency-Key, since what it asks for has changed; both in one transaction.
  async replace(old, { body, label, form = null }) {
    const entry = { ...old, key: newKey(), body, label, form, error: null, fields: {} };
    await this.store.swap(old.key, entry);
    this.changed();
    return entry;
  }

  async update(entry) {
    await this.store.put(entry);
    this.changed();
  }

  changed() { this.dispatchEvent(new Event("change")); }

  // Send what is waiting, oldest first; stop at the first one the network cannot carry.
  // A refused entry (the server answered with an error) stays, with the reason, until the
  // scorekeeper fixes or discards it; nothing behind it is sent out of order.
  async flush() {
    if (this.sending) return;
    this.sending = true;
    try {
      for (const entry of await this.pending()) {
        if (entry.error) break;
        let response;
        try {
          response = await this.fetch(entry.url, {
            method: entry.method,
            credentials: "same-origin",
            headers: {
              "Content-Type": "application/json",
              Accept: "application/json",
              "Idempotency-Key": entry.key,
              "X-CSRFToken": this.csrf(),
              ...entry.headers,
            },
            body: entry.body === undefined ? undefined : JSON.stringify(entry.body),
          });
        } catch {
          break; // no signal: keep it for later
        }
        let data = null;
        try { data = await response.json(); } catch { data = null; }
        if (response.ok) {
          await this.remove(entry.key);
          this.dispatchEvent(new CustomEvent("sent", { detail: { entry, data } }));
        } else if (tryAgainLater(response.status, data)) {
          break; // busy, or the first copy is still being stored: try again later, same key
        } else {
          entry.error = (data && data.message) || `${response.status} ${response.statusText}`;
          entry.fields = (data && data.fields) || {};
          await this.update(entry);
          this.dispatchEvent(new CustomEvent("refused", { detail: { entry, data } }));
          break;
        }
      }
    } finally {
      this.sending = false;
    }
  }
}
