// The preview: the API judges the hand in the form as it is typed (POST .../hands/preview/:
// the engine's outcome and the new score, nothing stored), once the form says enough and
// nothing on this phone is waiting to go before it.
import { config, formEntry, pad, preview, state, value, words } from "./context.js";
import { complete, countProblem, dealerSeat } from "./entry.js";
import { alreadyEntered, clearErrors, named, showErrors } from "./errors.js";
import { csrfToken } from "../outbox.js";
import { handNumber, handsAhead, renderOutbox } from "./queue.js";
import { refreshLive } from "./sheet.js";

export function schedulePreview(delay = 250) {
  clearTimeout(state.previewTimer);
  state.previewTimer = setTimeout(runPreview, delay);
}

// A preview asked for or on its way is no longer the form's.
export function cancelPreview() {
  clearTimeout(state.previewTimer);
  state.previewSeq += 1;
}

pad.addEventListener("moved-on", () => {
  cancelPreview();
  schedulePreview(0);
});

// The API's answer: the hand as entering it would store it, and the game's score line after.
function showOutcome(hand) {
  const { points } = hand;
  const { totals, over, winner } = hand.game;
  preview.innerHTML = "";
  const outcome = document.createElement("div");
  outcome.className = "outcome";
  outcome.innerHTML = `<span class="mark ${hand.outcome}"></span>`;
  outcome.firstChild.textContent = (config.outcomes || {})[hand.outcome] || hand.outcome_label;
  const line = document.createElement("div");
  line.className = "preview-score";
  line.textContent = `${config.teams[0]} +${points.team_a} → ${totals.team_a} · ${config.teams[1]} +${points.team_b} → ${totals.team_b}`;
  preview.append(outcome, line);
  if (over && winner) {
    const end = document.createElement("div");
    end.className = "winner";
    end.textContent = words.wins.replace("%(team)s", winner === "team_b" ? config.teams[1] : config.teams[0]);
    preview.append(end);
  }
}

export async function runPreview({ again = true } = {}) {
  const entry = formEntry();
  // preview once the line is filled in enough to say something (the server judges the rest)
  if (!complete(value)) {
    // what the last preview refused (a misplay and a throw-in together, ...) is gone with it
    if (preview.classList.contains("error")) clearErrors();
    preview.hidden = true;
    return;
  }
  const seq = ++state.previewSeq;
  await renderOutbox();
  if (seq !== state.previewSeq) return;
  preview.hidden = false;
  const problem = countProblem(value, words);
  if (problem) {
    showErrors({ fields: { card_points: [problem] } });
    preview.className = "preview error";
    preview.textContent = problem;
    return;
  }
  const number = handNumber();
  if (number < config.nextNumber) {
    // another phone has entered this hand: the server's preview would be of the next one
    clearErrors();
    preview.className = "preview error";
    preview.dataset.outcome = "";
    preview.textContent = state.editing && state.editing.conflict
      ? alreadyEntered(number)
      : words.numberTaken.replace("%(number)s", number);
    return;
  }
  if (!navigator.onLine || handsAhead().length > 0) {
    // the server's score is behind the hands still on this phone: it cannot judge this one yet
    clearErrors();
    preview.className = "preview";
    preview.textContent = navigator.onLine ? words.previewWaiting : words.previewOffline;
    return;
  }
  let response;
  try {
    response = await fetch(config.urls.preview, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ entry_kind: "summary", ...entry }),
    });
  } catch {
    preview.className = "preview";
    preview.textContent = words.previewOffline;
    return;
  }
  if (seq !== state.previewSeq) return;
  const data = await response.json().catch(() => ({}));
  if (seq !== state.previewSeq) return;
  const dealer = dealerSeat(config.dealers, number);
  if (response.ok && typeof data.dealer === "number"
    && dealer !== undefined && data.dealer !== dealer) {
    // the server previewed another hand than this one (another phone saved a hand meanwhile):
    // look at the game again and preview this hand as it now stands, or say nothing of it
    clearErrors();
    preview.className = "preview";
    preview.dataset.outcome = "";
    preview.textContent = words.previewWaiting;
    await refreshLive(true);
    if (seq === state.previewSeq) {
      if (again) runPreview({ again: false });
      else preview.hidden = true;
    }
    return;
  }
  if (response.ok) {
    clearErrors();
    preview.className = "preview";
    preview.dataset.outcome = data.outcome;
    showOutcome(data);
  } else {
    preview.className = "preview error";
    preview.dataset.outcome = "";
    const placed = showErrors(data);
    const message = named(null, data.message || "");
    preview.textContent = placed ? message : (message || response.statusText);
  }
}
