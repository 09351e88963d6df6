// Cards and words of online play: pure functions, no page, so Node's test runner checks them.

export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

// The words of online play, in English; the table page gives them in its own language
// (``setWords`` with the page's play-words), and ``say`` fills in their %(name)s.
export const WORDS = {
  clubs: "clubs", diamonds: "diamonds", hearts: "hearts", spades: "spades", noTrumpWord: "no trump",
  passed: "%(name)s passed",
  called: "%(name)s called %(suit)s",
  hasRun: "%(name)s has a run",
  showed: "%(name)s showed %(cards)s",
  calledBella: "%(name)s called bella",
  played: "%(name)s played %(card)s",
  threwIn: "%(name)s threw in",
  pass: "Pass",
  noTrump: "No trump",
  announceRun: "Announce a run",
  show: "Show %(cards)s",
  bella: "Bella",
  throwIn: "Throw in",
  you: "You",
  seat: "seat %(n)s",
  emptySeat: "empty seat",
  computer: "computer",
  waitingSignIn: "waiting for them to sign in",
  theMatch: "The match",
  waiting: "Waiting for four players.",
  turnedJack: "%(name)s turned a jack and deals.",
  cuts: "%(cutter)s cuts the deck for %(dealer)s.",
  handResult: "Hand %(number)s: %(outcome)s, %(a)s to %(b)s.",
  gameOverYours: "Game over: your team wins, %(a)s to %(b)s.",
  gameOverTeam: "Game over: team %(team)s wins, %(a)s to %(b)s.",
  nextDeals: "Next: %(name)s deals.",
  trickTo: "trick to %(name)s",
  toCall: "%(name)s to call",
  toPlay: "%(name)s to play",
  handOver: "the hand is over",
  dealer: "dealer",
  calledSuit: "called %(suit)s",
  cards: "%(n)s cards",
  away: "away",
  notPlayable: "Not playable now: tap to see why",
  turnOf: "It is %(name)s's turn.",
  flipAndStart: "Flip for jacks and start",
  anotherGame: "Another game",
  whereToCut: "Where to cut",
  cutHere: "Cut here",
  nextHand: "Next hand",
  goOn: "Go on",
  throwInConfirm: "Throw in your cards? The hand stops and is scored as it stands.",
  sheetHand: "Hand",
  sheetTeamA: "Team A",
  sheetTeamB: "Team B",
  sheetTotalA: "Total A",
  sheetTotalB: "Total B",
  gamePage: "The game's page",
  outcomes: {},
};

export function setWords(words) {
  Object.assign(WORDS, words || {});
}

export function say(key, values = {}) {
  return (WORDS[key] ?? key).replace(/%\((\w+)\)s/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANKS = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"];

export function suitOf(card) {
  return card.slice(-1);
}

export function rankOf(card) {
  return card.slice(0, -1);
}

export function label(card) {
  return `${rankOf(card)}${SUITS[suitOf(card)]}`;
}

export function isRed(card) {
  const suit = suitOf(card);
  return suit === "H" || suit === "D";
}

export function suitWord(suit) {
  return say(suit === null ? "noTrumpWord" : SUIT_WORDS[suit]);
}

// Cards in suit order then rank, for a hand nobody has arranged yet.
export function sorted(cards) {
  const order = "CDHS";
  return [...cards].sort(
    (a, b) =>
      order.indexOf(suitOf(a)) - order.indexOf(suitOf(b)) ||
      RANKS.indexOf(rankOf(a)) - RANKS.indexOf(rankOf(b)),
  );
}

// The cards in the order the player arranged them: those they placed first, in their order,
// then any new ones in suit order.
export function arranged(cards, order) {
  const known = (order || []).filter((c) => cards.includes(c));
  return [...known, ...sorted(cards.filter((c) => !known.includes(c)))];
}

// Move card `from` to where card `to` is.
export function moved(cards, from, to) {
  const out = cards.filter((c) => c !== from);
  out.splice(cards.indexOf(to), 0, from);
  return out;
}

// Where a seat sits on the screen: 0 at the bottom (you), 1 left, 2 across, 3 right.
export function place(seat, you) {
  return (seat - (you ?? 0) + 4) % 4;
}

// One line for the message bar from what someone did.
export function said(action, name) {
  switch (action.type) {
    case "pass":
      return say("passed", { name });
    case "call":
      return say("called", { name, suit: suitWord(action.trump) });
    case "announce_run":
      return say("hasRun", { name });
    case "show_run":
      return say("showed", { name, cards: action.cards.map(label).join(" ") });
    case "bella":
      return say("calledBella", { name });
    case "play":
      return say("played", { name, card: label(action.card) });
    case "throw_in":
      return say("threwIn", { name });
    default:
      return "";
  }
}

// The words of a move's button.
export function buttonText(action) {
  switch (action.type) {
    case "pass":
      return say("pass");
    case "call":
      return action.trump === null ? say("noTrump") : `${SUITS[action.trump]} ${suitWord(action.trump)}`;
    case "announce_run":
      return say("announceRun");
    case "show_run":
      return say("show", { cards: action.cards.map(label).join(" ") });
    case "bella":
      return say("bella");
    case "throw_in":
      return say("throwIn");
    default:
      return action.type;
  }
}
