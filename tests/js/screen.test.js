// The big screen's turning pages, without a browser.
import assert from "node:assert/strict";
import { test } from "node:test";

import { pageAt } from "../../static/js/screen.js";

test("each page shows for its seconds, then the next, then the first again", () => {
  const at = (seconds) => pageAt(seconds * 1000, 20, 2);
  assert.deepEqual([0, 19.9, 20, 39.9, 40].map(at), [0, 0, 1, 1, 0]);
  assert.equal(pageAt(65_000, 20, 3), 0); // 65 s: the fourth turn, the first of three pages
});

test("one page, or no time given, shows the first", () => {
  assert.equal(pageAt(123_456, 20, 1), 0);
  assert.equal(pageAt(123_456, Number.NaN, 2), 0);
  assert.equal(pageAt(123_456, 0, 2), 0);
});
