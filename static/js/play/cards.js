// Cards and words of online play: pure functions, no page, so Node's test runner checks them.

export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
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
  return suit === null ? "no trump" : SUIT_WORDS[suit];
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
      return `${name} passed`;
    case "call":
      return `${name} called ${suitWord(action.trump)}`;
    case "announce_run":
      return `${name} has a run`;
    case "show_run":
      return `${name} showed ${action.cards.map(label).join(" ")}`;
    case "bella":
      return `${name} called bella`;
    case "play":
      return `${name} played ${label(action.card)}`;
    case "throw_in":
      return `${name} threw in`;
    default:
      return "";
  }
}

// The words of a move's button.
export function buttonText(action) {
  switch (action.type) {
    case "pass":
      return "Pass";
    case "call":
      return action.trump === null ? "No trump" : `${SUITS[action.trump]} ${suitWord(action.trump)}`;
    case "announce_run":
      return "Announce a run";
    case "show_run":
      return `Show ${action.cards.map(label).join(" ")}`;
    case "bella":
      return "Bella";
    case "throw_in":
      return "Throw in";
    default:
      return action.type;
  }
}
