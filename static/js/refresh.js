// Parts of public pages that keep themselves up to date (the hall's big screen, live brackets
// and standings): every element with data-refresh-url is fetched again every
// data-refresh-seconds (default 20) and redrawn only when the server sends something new.
// A region where someone has started filling in a form (a director's ruling) is not redrawn
// until that form is sent or emptied again, even once they have looked away from it.
import { edited } from "./forms.js";

const regions = document.querySelectorAll("[data-refresh-url]");

function started(region) {
  return [...region.querySelectorAll("form")].some(edited);
}

// What a region shows, to compare with what the server sends: both as parsed by the page, so
// the first answer is not taken for news, and without the forms' CSRF token, which is masked
// anew at every render though it stands for the same secret.
function shown(node) {
  const copy = node.cloneNode(true);
  (copy.content || copy).querySelectorAll("input[name=csrfmiddlewaretoken]").forEach((input) => {
    input.removeAttribute("value");
  });
  return copy.innerHTML.trim();
}

async function refresh(region) {
  if (!navigator.onLine || document.hidden) return;
  // never redraw under someone typing or choosing (a director's ruling, a followed team)
  if (region.contains(document.activeElement) && document.activeElement !== document.body) return;
  if (started(region)) return;
  try {
    const response = await fetch(region.dataset.refreshUrl, {
      credentials: "same-origin",
      headers: { "X-Requested-With": "refresh" },
    });
    // a refusal, or a redirect to signing in once the session has ended: keep what is shown
    if (!response.ok || response.redirected) return;
    const sent = document.createElement("template"); // inert: nothing in it loads or runs
    sent.innerHTML = await response.text();
    if (shown(sent) !== shown(region)) {
      region.replaceChildren(sent.content);
      region.dataset.refreshedAt = new Date().toISOString();
      region.dispatchEvent(new CustomEvent("refreshed", { bubbles: true }));
    }
  } catch {
    // no signal: keep showing what we have
  }
}

regions.forEach((region) => {
  const seconds = Number(region.dataset.refreshSeconds || 20);
  setInterval(() => refresh(region), seconds * 1000);
});
