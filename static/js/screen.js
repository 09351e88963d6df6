// The hall's big screen: a bracket too tall to read whole across the room comes as pages (the
// winners' side with the final, then the losers' side), and the screen shows one at a time,
// each for the live region's data-page-seconds. The page shown is set on that region, which
// outlives the redraws of what is inside it, and is chosen by the clock, so a redraw never
// starts the turn again and screens side by side turn together. Without scripts every page
// shows.

// Which of `count` pages shows at `now` (ms since the epoch), each shown for `seconds`.
export function pageAt(now, seconds, count) {
  if (count < 2 || !(seconds > 0)) return 0;
  return Math.floor(now / (seconds * 1000)) % count;
}

function turn(region) {
  const pages = region.querySelectorAll(".bracket-page");
  if (pages.length < 2) {
    delete region.dataset.page;
    return;
  }
  const shown = String(pageAt(Date.now(), Number(region.dataset.pageSeconds), pages.length));
  if (region.dataset.page !== shown) region.dataset.page = shown;
}

if (typeof document !== "undefined") {
  const region = document.getElementById("screen-live");
  if (region) {
    turn(region);
    region.addEventListener("refreshed", () => turn(region));
    setInterval(() => turn(region), 1000);
  }
}
