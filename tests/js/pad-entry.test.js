// What the pad works out by itself from the form: the entry the API takes, the count's plain
// arithmetic, the hand's line in the outbox, the number of a new hand and who deals it.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  buildEntry, complete, countProblem, dealerSeat, describe as line, freshNumber,
} from "../../static/js/pad/entry.js";

const form = (fields) => (name) => fields[name] ?? "";

describe("the entry", () => {
  test("a called hand with its count and runs", () => {
    const entry = buildEntry(form({ caller: "1", trump: "H", count: "100", count_team: "team_b", bella_seat: "1" }), {
      runs: [{ seat: "1", kind: "twenty", value: "2" }, { seat: "3", kind: "fifty", value: "" }],
    });
    assert.deepEqual(entry, {
      caller: 1,
      trump: "H",
      card_points: { team: "team_b", points: 100 },
      run_counts: [
        { twenties: 0, fifties: 0 }, { twenties: 2, fifties: 0 },
        { twenties: 0, fifties: 0 }, { twenties: 0, fifties: 0 },
      ],
      bella_seat: 1,
      misplay: null,
      thrown_in_by: null,
    });
  });

  test("thrown in: both teams' points, team A's first", () => {
    const entry = buildEntry(form({ caller: "0", trump: "S", count: "40", other_count: "30", count_team: "team_b", thrown_in_by: "2" }));
    assert.deepEqual(entry.card_points, [30, 40]);
    assert.equal(entry.thrown_in_by, 2);
  });

  test("a misplay: no count, and whether it was proven", () => {
    const entry = buildEntry(form({ caller: "0", trump: "C", count: "90", misplay_by: "3" }), { proven: true });
    assert.equal(entry.card_points, null);
    assert.deepEqual(entry.misplay, { called_by: 3, proven: true });
  });

  test("no one called: no trump, no count", () => {
    const entry = buildEntry(form({ caller: "void", trump: "H", count: "80" }));
    assert.equal(entry.caller, null);
    assert.equal(entry.trump, null);
    assert.equal(entry.card_points, null);
    assert.equal(entry.run_counts, null);
  });

  test("enough to preview", () => {
    assert.equal(complete(form({ caller: "void" })), true);
    assert.equal(complete(form({ caller: "0", trump: "H" })), false);
    assert.equal(complete(form({ caller: "0", trump: "H", count: "0" })), true);
    assert.equal(complete(form({ caller: "0", trump: "H", misplay_by: "1" })), true);
  });
});

describe("the count", () => {
  test("0 to 162 with trump, 130 with none, never 1 short of either end", () => {
    assert.equal(countProblem(form({ caller: "0", trump: "H", count: "162" })), null);
    assert.match(countProblem(form({ caller: "0", trump: "H", count: "163" })), /0 to 162/);
    assert.match(countProblem(form({ caller: "0", trump: "none", count: "131" })), /0 to 130/);
    assert.match(countProblem(form({ caller: "0", trump: "H", count: "161" })), /no card is worth 1/);
    assert.match(countProblem(form({ caller: "0", trump: "H", count: "1" })), /no card is worth 1/);
    assert.match(countProblem(form({ caller: "0", trump: "H", count: "2.5" })), /impossible/);
  });

  test("said in the page's words when it gives them", () => {
    const words = {
      countRange: "%(points)s points de cartes, c'est impossible : une équipe en fait de 0 à %(total)s",
      countOne: "%(points)s points de cartes, c'est impossible : aucune carte ne vaut 1",
    };
    assert.equal(
      countProblem(form({ caller: "0", trump: "none", count: "131" }), words),
      "131 points de cartes, c'est impossible : une équipe en fait de 0 à 130",
    );
    assert.match(countProblem(form({ caller: "0", trump: "H", count: "161" }), words), /aucune carte/);
  });

  test("not judged with no caller or a misplay", () => {
    assert.equal(countProblem(form({ caller: "void", count: "500" })), null);
    assert.equal(countProblem(form({ caller: "0", trump: "H", count: "500", misplay_by: "1" })), null);
  });
});

describe("numbers and dealers", () => {
  const names = { hand: "Hand", seats: ["Ann", "Bob", "Cy", "Di"], teams: ["Us", "Them"] };

  test("the hand's line", () => {
    assert.equal(line({ caller: 0, trump: "H", card_points: { team: "team_b", points: 62 } }, 4, names), "Hand 4: Ann ♥ 62 (Them)");
    assert.equal(line({ caller: 1, trump: "S", card_points: [30, 40] }, 5, names), "Hand 5: Bob ♠ 30–40");
    assert.equal(line({ caller: null, trump: null, card_points: null }, 6, names), "Hand 6: —");
    const passed = { ...names, passed: "all passed" };
    assert.equal(line({ caller: null, trump: null, card_points: null }, 6, passed), "Hand 6: all passed");
  });

  test("a new hand comes after those on this phone", () => {
    assert.equal(freshNumber([], 7), 7);
    assert.equal(freshNumber([{ body: { number: 7 } }, { body: { number: 8 } }], 7), 9);
  });

  test("dealers: the server's, then round the table", () => {
    assert.equal(dealerSeat({ 1: 2, 2: 3 }, 2), 3);
    assert.equal(dealerSeat({ 1: 2 }, 4), 1);
    assert.equal(dealerSeat({}, 3), undefined);
  });
});
