// The outbox's logic, without a browser: entries kept in memory instead of IndexedDB, and a
// server that answers as told. What it must never do: lose a hand, store one twice, or send
// one before a hand ahead of it has been stored.
import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import { Outbox, tryAgainLater } from "../../static/js/outbox.js";

// Entries as IndexedDB would keep them: copies, so the outbox must write what it changes.
function memoryStore() {
  const rows = new Map();
  const copy = (entry) => structuredClone(entry);
  return {
    rows,
    async all(scope) { return [...rows.values()].filter((e) => e.scope === scope).map(copy); },
    async put(entry) { rows.set(entry.key, copy(entry)); },
    async delete(key) { rows.delete(key); },
    async swap(oldKey, entry) { rows.delete(oldKey); rows.set(entry.key, copy(entry)); },
  };
}

function reply(status, data) {
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: `status ${status}`,
    async json() {
      if (data === undefined) throw new SyntaxError("not JSON");
      return data;
    },
  };
}

// A server that answers each request with the next of ``answers`` (an answer that is an Error
// is no signal), then 201; it remembers what it was sent.
function server(...answers) {
  const sent = [];
  const fetch = async (url, init) => {
    sent.push({ url, key: init.headers["Idempotency-Key"], body: JSON.parse(init.body), init });
    const answer = answers.shift() ?? reply(201, { ok: true });
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { sent, fetch };
}

let clock;
let store;

function outboxFor(fetch) {
  return new Outbox("game-1", { store, fetch, csrf: () => "token" });
}

function events(outbox) {
  const seen = [];
  for (const name of ["sent", "refused"]) {
    outbox.addEventListener(name, (event) => seen.push([name, event.detail.entry.body.number]));
  }
  return seen;
}

async function queue(outbox, ...numbers) {
  const entries = [];
  for (const number of numbers) {
    clock += 1;
    entries.push(await outbox.add({ url: "/api/v1/games/1/hands/", body: { number }, label: `Hand ${number}` }));
  }
  return entries;
}

beforeEach(() => {
  clock = 1_000;
  Date.now = () => clock;
  store = memoryStore();
});

describe("queueing", () => {
  test("a hand is kept with its own key before anything is sent", async () => {
    const { sent, fetch } = server();
    const outbox = outboxFor(fetch);
    const [first, second] = await queue(outbox, 1, 2);
    assert.equal(sent.length, 0);
    assert.notEqual(first.key, second.key);
    assert.deepEqual((await outbox.pending()).map((e) => e.key), [first.key, second.key]);
  });

  test("each change is announced", async () => {
    const outbox = outboxFor(server().fetch);
    let changes = 0;
    outbox.addEventListener("change", () => { changes += 1; });
    const [entry] = await queue(outbox, 1);
    await outbox.remove(entry.key);
    assert.equal(changes, 2);
  });

  test("sent oldest first, each under its key, then gone", async () => {
    const { sent, fetch } = server();
    const outbox = outboxFor(fetch);
    const entries = await queue(outbox, 1, 2, 3);
    const seen = events(outbox);
    await outbox.flush();
    assert.deepEqual(sent.map((s) => s.body.number), [1, 2, 3]);
    assert.deepEqual(sent.map((s) => s.key), entries.map((e) => e.key));
    assert.deepEqual(seen, [["sent", 1], ["sent", 2], ["sent", 3]]);
    assert.deepEqual(await outbox.pending(), []);
  });

  test("the request carries its key, the CSRF token and JSON", async () => {
    const { sent, fetch } = server();
    const outbox = outboxFor(fetch);
    const [entry] = await queue(outbox, 1);
    await outbox.flush();
    const { init } = sent[0];
    assert.equal(init.method, "POST");
    assert.equal(init.credentials, "same-origin");
    assert.equal(init.headers["Idempotency-Key"], entry.key);
    assert.equal(init.headers["X-CSRFToken"], "token");
    assert.equal(init.headers["Content-Type"], "application/json");
  });

  test("only this game's hands", async () => {
    const { sent, fetch } = server();
    await queue(new Outbox("game-2", { store, fetch, csrf: () => "" }), 7);
    const outbox = outboxFor(fetch);
    await queue(outbox, 1);
    await outbox.flush();
    assert.deepEqual(sent.map((s) => s.body.number), [1]);
    assert.equal(store.rows.size, 1);
  });

  test("a second flush while the first is sending sends nothing twice", async () => {
    let release;
    let arrived;
    const reached = new Promise((resolve) => { arrived = resolve; });
    const sent = [];
    const fetch = async (url, init) => {
      sent.push(init.headers["Idempotency-Key"]);
      arrived();
      await new Promise((resolve) => { release = resolve; });
      return reply(201, {});
    };
    const outbox = outboxFor(fetch);
    await queue(outbox, 1);
    const first = outbox.flush();
    await reached; // the first copy is on its way, not yet answered
    await outbox.flush();
    release();
    await first;
    assert.equal(sent.length, 1);
  });
});

describe("retry with the same key", () => {
  for (const [what, answer] of [
    ["no signal", new TypeError("Failed to fetch")],
    ["a server error", reply(503, { message: "down", code: "unavailable" })],
    ["an answer that is not JSON", reply(502)],
    ["too many requests", reply(429, { message: "slow down", code: "throttled" })],
    ["the first copy still being stored (409)", reply(409, { message: "in flight", code: "idempotency_key_in_flight", fields: {} })],
  ]) {
    test(`${what}: kept, nothing behind it sent, sent again later under its key`, async () => {
      const { sent, fetch } = server(answer);
      const outbox = outboxFor(fetch);
      const [first, second] = await queue(outbox, 1, 2);
      const seen = events(outbox);
      await outbox.flush();
      assert.deepEqual(sent.map((s) => s.key), [first.key]);
      const kept = await outbox.pending();
      assert.deepEqual(kept.map((e) => e.key), [first.key, second.key]);
      assert.equal(kept[0].error, null);
      assert.deepEqual(seen, []);

      await outbox.flush();
      assert.deepEqual(sent.map((s) => s.key), [first.key, first.key, second.key]);
      assert.deepEqual(sent[1].body, sent[0].body);
      assert.deepEqual(await outbox.pending(), []);
    });
  }

  test("which answers mean try again later", () => {
    assert.equal(tryAgainLater(500, null), true);
    assert.equal(tryAgainLater(429, null), true);
    assert.equal(tryAgainLater(409, { code: "idempotency_key_in_flight" }), true);
    assert.equal(tryAgainLater(409, { code: "conflict" }), false);
    assert.equal(tryAgainLater(422, { code: "idempotency_key_reused" }), false);
    assert.equal(tryAgainLater(400, { code: "invalid" }), false);
    assert.equal(tryAgainLater(400, null), false);
  });
});

describe("a refused hand", () => {
  const taken = reply(409, {
    message: "Hand 2 is already entered.", code: "conflict", fields: { number: ["Hand 2 is already entered."] },
  });
  const reused = reply(422, {
    message: "This Idempotency-Key was used for another request.",
    code: "idempotency_key_reused",
    fields: { "Idempotency-Key": ["This Idempotency-Key was used for another request."] },
  });
  const invalid = reply(400, { message: "Invalid hand.", code: "invalid", fields: { "entry.caller": ["seat 0 must call"] } });

  for (const [what, answer] of [["409, its number taken", taken], ["422, its key reused", reused], ["400", invalid]]) {
    test(`${what}: kept with the reason, and nothing behind it is sent`, async () => {
      const data = await answer.json();
      const { sent, fetch } = server(reply(201, {}), answer);
      const outbox = outboxFor(fetch);
      const [, second, third] = await queue(outbox, 1, 2, 3);
      const seen = events(outbox);
      await outbox.flush();
      assert.deepEqual(sent.map((s) => s.body.number), [1, 2]);
      assert.deepEqual(seen, [["sent", 1], ["refused", 2]]);
      const kept = await outbox.pending();
      assert.deepEqual(kept.map((e) => e.key), [second.key, third.key]);
      assert.equal(kept[0].error, data.message);
      assert.deepEqual(kept[0].fields, data.fields);
      assert.equal(kept[1].error, null);

      // never sent again as it is, and nothing overtakes it
      await outbox.flush();
      await outbox.flush();
      assert.equal(sent.length, 2);
    });
  }

  test("with no message: the status says why", async () => {
    const outbox = outboxFor(server(reply(404)).fetch);
    await queue(outbox, 1);
    await outbox.flush();
    const [kept] = await outbox.pending();
    assert.equal(kept.error, "404 status 404");
    assert.deepEqual(kept.fields, {});
  });

  test("put right: first in line again, under a new key, then the rest", async () => {
    const { sent, fetch } = server(taken);
    const outbox = outboxFor(fetch);
    const [first, second] = await queue(outbox, 2, 3);
    await outbox.flush();
    const [refused] = await outbox.pending();
    clock += 100; // put right later: it keeps its place all the same
    const fixed = await outbox.replace(refused, { body: { number: 2, fixed: true }, label: "Hand 2" });
    assert.notEqual(fixed.key, first.key);
    assert.equal(fixed.created, first.created);
    assert.equal(fixed.error, null);
    assert.deepEqual(fixed.fields, {});
    assert.deepEqual((await outbox.pending()).map((e) => e.key), [fixed.key, second.key]);
    assert.equal(store.rows.has(first.key), false);

    await outbox.flush();
    assert.deepEqual(sent.map((s) => s.key), [first.key, fixed.key, second.key]);
    assert.deepEqual(sent[1].body, { number: 2, fixed: true });
    assert.deepEqual(await outbox.pending(), []);
  });

  test("discarded: the hands behind it go on", async () => {
    const { sent, fetch } = server(invalid);
    const outbox = outboxFor(fetch);
    const [first, second] = await queue(outbox, 1, 2);
    await outbox.flush();
    await outbox.remove(first.key);
    await outbox.flush();
    assert.deepEqual(sent.map((s) => s.key), [first.key, second.key]);
    assert.deepEqual(await outbox.pending(), []);
  });
});
