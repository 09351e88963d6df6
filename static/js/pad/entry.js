// A hand as typed in the pad's form, turned into the entry the API takes, and the little the
// pad judges itself. ``value(name)`` reads a field of the form: these functions know no page.

export function seatOrNull(text) {
  return text === "" || text === null || text === undefined ? null : Number(text);
}

// The same entry the server-side form builds (scoring/forms.py HandForm.to_entry). ``runs``:
// the run grid's boxes, each {seat, kind: "twenty"|"fifty", value}; ``proven``: whether the
// misplay's box is ticked.
export function buildEntry(value, { runs = [], proven = false } = {}) {
  const callerText = value("caller");
  const caller = callerText === "void" || callerText === "" ? null : Number(callerText);
  let trump = value("trump") || null;
  if (trump === "none") trump = null;
  const misplayBy = seatOrNull(value("misplay_by"));
  const entry = { caller, trump: caller === null ? null : trump };
  const count = value("count");
  const thrownInBy = seatOrNull(value("thrown_in_by"));
  const other = value("other_count");
  if (caller !== null && misplayBy === null && count !== "") {
    const team = value("count_team") || "team_a";
    if (thrownInBy !== null && other !== "") {
      // both teams' points as won when thrown in: the engine adds the rest
      const pair = [Number(count), Number(other)];
      entry.card_points = team === "team_a" ? pair : pair.reverse();
    } else {
      entry.card_points = { team, points: Number(count) };
    }
  } else {
    entry.card_points = null;
  }
  // the runs each player showed, as counted in the grid: the engine works out who counts them
  const counts = [0, 1, 2, 3].map(() => ({ twenties: 0, fifties: 0 }));
  for (const box of runs) {
    counts[Number(box.seat)][box.kind === "fifty" ? "fifties" : "twenties"] = Number(box.value || 0);
  }
  entry.run_counts = counts.some((c) => c.twenties || c.fifties) ? counts : null;
  entry.bella_seat = seatOrNull(value("bella_seat"));
  entry.misplay = misplayBy === null ? null : { called_by: misplayBy, proven: !!proven };
  entry.thrown_in_by = thrownInBy;
  return entry;
}

// Whether the form says enough of the hand for the server to judge it.
export function complete(value) {
  const caller = value("caller");
  return caller === "void"
    || (caller !== "" && value("trump") !== "" && (value("count") !== "" || value("misplay_by") !== ""));
}

// The count's plain arithmetic, in the engine's words (scoring/engine/scoring.py): caught as
// typed, signal or not. Everything else is the server's to judge. ``words`` holds the page's
// wording in its language (countRange, countOne, with %(points)s and %(total)s), else English.
const COUNT_WORDS = {
  countRange: "card points %(points)s are impossible: a team takes 0 to %(total)s",
  countOne: "card points %(points)s are impossible: no card is worth 1",
};

export function countProblem(value, words = {}) {
  const points = value("count");
  if (points === "" || value("caller") === "" || value("caller") === "void" || value("misplay_by") !== "") {
    return null;
  }
  const total = value("trump") === "none" ? 130 : 162;
  const n = Number(points);
  const said = (key) => (words[key] || COUNT_WORDS[key])
    .replace("%(points)s", String(n)).replace("%(total)s", String(total));
  if (!Number.isInteger(n) || n < 0 || n > total) return said("countRange");
  if (n === 1 || n === total - 1) return said("countOne");
  return null;
}

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

// The hand's line in the outbox: "Hand 4: Ann ♥ 100 (Team A)". ``names``: {hand, seats, teams}.
export function describe(entry, number, names) {
  const parts = [`${names.hand} ${number}:`];
  if (entry.caller === null) parts.push(names.passed || "—"); // all passed: no caller
  else parts.push(names.seats[entry.caller] + (entry.trump ? ` ${SUITS[entry.trump]}` : ""));
  if (Array.isArray(entry.card_points)) {
    parts.push(`${entry.card_points[0]}–${entry.card_points[1]}`); // a hand thrown in
  } else if (entry.card_points) {
    const team = entry.card_points.team === "team_b" ? names.teams[1] : names.teams[0];
    parts.push(`${entry.card_points.points} (${team})`);
  }
  return parts.join(" ");
}

// A new hand comes after every hand on this phone, or is the server's next one.
export function freshNumber(queue, nextNumber) {
  const numbers = queue.map((entry) => entry.body && entry.body.number).filter((n) => typeof n === "number");
  return numbers.length ? Math.max(...numbers) + 1 : nextNumber;
}

// Who deals hand ``number``: the server's word for the hands it knows, then round the table.
export function dealerSeat(dealers, number) {
  return dealers[number] ?? (dealers[1] === undefined ? undefined : (dealers[1] + number - 1) % 4);
}
