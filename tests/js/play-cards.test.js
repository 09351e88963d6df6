// The words and card order of the online table page, without a browser.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  WORDS, arranged, buttonText, label, moved, place, said, say, setWords,
} from "../../static/js/play/cards.js";

test("a card reads as its rank and suit symbol", () => {
  assert.equal(label("10H"), "10♥");
  assert.equal(label("JS"), "J♠");
});

test("seats are drawn around the player: left, across, right", () => {
  assert.deepEqual([0, 1, 2, 3].map((seat) => place(seat, 2)), [2, 3, 0, 1]);
  assert.equal(place(1, null), 1); // a spectator sees seat 0 at the bottom
});

test("an arranged hand keeps the player's order and adds new cards in suit order", () => {
  assert.deepEqual(arranged(["AS", "6C", "JH"], ["JH", "9D"]), ["JH", "6C", "AS"]);
  assert.deepEqual(moved(["6C", "JH", "AS"], "AS", "6C"), ["AS", "6C", "JH"]);
});

test("every move has words for the message bar and its button", () => {
  assert.equal(said({ type: "call", seat: 1, trump: "H" }, "Ann"), "Ann called hearts");
  assert.equal(said({ type: "play", seat: 1, card: "QS" }, "Ann"), "Ann played Q♠");
  assert.equal(buttonText({ type: "call", trump: null }), "No trump");
  assert.equal(buttonText({ type: "show_run", cards: ["7C", "8C", "9C"] }), "Show 7♣ 8♣ 9♣");
});

test("the page's words replace the English ones, placeholders filled", () => {
  const english = { ...WORDS };
  try {
    setWords({ called: "%(name)s a appelé %(suit)s", hearts: "cœur", pass: "Passer" });
    assert.equal(said({ type: "call", seat: 1, trump: "H" }, "Ann"), "Ann a appelé cœur");
    assert.equal(buttonText({ type: "pass" }), "Passer");
    assert.equal(say("cards", { n: 9 }), "9 cards"); // a word the page did not give: English
    assert.equal(say("no-such-word"), "no-such-word");
    assert.equal(say("show", {}), "Show %(cards)s"); // a value not given stays visible
  } finally {
    setWords(english);
  }
});
