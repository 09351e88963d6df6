// The hall's big screen: a bracket too tall to read whole across the room comes as pages (a
// side at a time, a large side by halves or quarters), and the screen shows one at a time,
// each for the live region's data-page-seconds. The page shown is chosen by the clock, and
// chosen again as soon as the region is redrawn (before the browser paints it), so a redraw
// never starts the turn again and screens side by side turn together. Without scripts every
// page shows, one under the other.

// Which of `count` pages shows at `now` (ms since the epoch), each shown for `seconds`.
export function pageAt(now, seconds, count) {
  if (count < 2 || !(seconds > 0)) return 0;
  return Math.floor(now / (seconds * 1000)) % count;
}

function turn(region) {
  const pages = region.querySelectorAll(".bracket-page");
  const shown = pageAt(Date.now(), Number(region.dataset.pageSeconds), pages.length);
  pages.forEach((page, index) => {
    page.hidden = pages.length > 1 && index !== shown;
  });
}

if (typeof document !== "undefined") {
  const region = document.getElementById("screen-live");
  if (region) {
    turn(region);
    region.addEventListener("refreshed", () => turn(region));
    setInterval(() => turn(region), 1000);
  }
}
