// The score-pad: taps become a hand entry, the server previews it (the engine's outcome and
// the new score), and saving puts it in the outbox, which sends it to the API with its
// Idempotency-Key now or when the signal returns. This script knows no rules of the game:
// every number it shows comes from the server, but for what a hand typed with no signal needs
// at once: the dealers ahead (from the page's config) and the count's plain arithmetic.
import { edited } from "./forms.js";
import { Outbox, csrfToken } from "./outbox.js";

const config = JSON.parse(document.getElementById("pad-config").textContent);
const form = document.getElementById("hand-form");
const preview = document.getElementById("preview");
const outboxBox = document.getElementById("outbox");
const outboxTitle = document.getElementById("outbox-title");
const outboxList = document.getElementById("outbox-list");
const outbox = new Outbox(`game-${config.game}`);
const words = { ...config.words, ...(document.getElementById("pad-words") || {}).dataset };
const conflictNote = document.getElementById("pad-conflict");

// The hands on this phone not yet stored, as last drawn; the refused hand put back in the form
// ({key, number, conflict}), which keeps its place in the queue and its number until saved
// again or discarded (``conflict``: refused because another phone entered that number, which
// is almost always the same hand entered twice: it is never renumbered); and the number of the
// hand being typed, fixed once typing starts, so that a hand entered meanwhile from another
// phone does not silently move it on.
let queue = [];
let editing = null;
let formNumber = null;

// Error paths from the engine and the API -> the form's fields.
const FIELD_OF = {
  caller: "caller", trump: "trump", card_points: "count", "card_points.team": "count",
  run_points: "runs", run_counts: "runs", runs: "runs", bella_seat: "bella_seat", misplay: "misplay_by",
  "misplay.called_by": "misplay_by", "misplay.proven": "misplay_by", thrown_in_by: "thrown_in_by",
};

function fieldOf(path) {
  if (!path) return null;
  const bare = path.replace(/^entry\./, "");
  return FIELD_OF[bare] || FIELD_OF[bare.split(".")[0]] || null;
}

function value(name) {
  const checked = form.querySelector(`[name="${name}"]:checked`);
  if (checked) return checked.value;
  const input = form.querySelector(`[name="${name}"]:not([type=radio])`);
  return input ? input.value : "";
}

function seatOrNull(text) {
  return text === "" || text === null || text === undefined ? null : Number(text);
}

// The same entry the server-side form builds (scoring/forms.py HandForm.to_entry).
function buildEntry() {
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
  form.querySelectorAll("[data-run]").forEach((input) => {
    const n = Number(input.value || 0);
    counts[Number(input.dataset.seat)][input.dataset.run === "fifty" ? "fifties" : "twenties"] = n;
  });
  entry.run_counts = counts.some((c) => c.twenties || c.fifties) ? counts : null;
  entry.bella_seat = seatOrNull(value("bella_seat"));
  const proven = form.querySelector('[name="misplay_proven"]');
  entry.misplay = misplayBy === null ? null : { called_by: misplayBy, proven: !!(proven && proven.checked) };
  entry.thrown_in_by = thrownInBy;
  return entry;
}

// The engine's refusals speak of seats ("seat 0 must call ..."): say the players' names
// instead, wherever the pad shows one (beside a field, in the preview, in the outbox).
function named(_path, text) {
  if (text === null || text === undefined) return "";
  return String(text).replace(/\bseat ([0-3])\b/g, (seat, n) => config.seats[n] || seat);
}

// What the scorekeeper is told of a hand refused because another phone entered its number.
function alreadyEntered(number) {
  return words.alreadyEntered.replaceAll("%(number)s", number);
}

function correctUrl(number) {
  return words.correctUrl.replace(/\/0\/correct\/$/, `/${number}/correct/`);
}

function correctLink(number) {
  const link = document.createElement("a");
  link.href = correctUrl(number);
  link.textContent = words.correctHand.replace("%(number)s", number);
  return link;
}

// A refused entry whose number another phone has entered (and that is still so).
function numberTaken(entry) {
  const number = entry && entry.body && entry.body.number;
  return !!(entry && entry.fields && entry.fields.number) && typeof number === "number"
    && number < config.nextNumber;
}

function describe(entry, number) {
  const parts = [`${words.hand} ${number}:`];
  if (entry.caller === null) parts.push("—");
  else parts.push(config.seats[entry.caller] + (entry.trump ? ` ${{ C: "♣", D: "♦", H: "♥", S: "♠" }[entry.trump]}` : ""));
  if (Array.isArray(entry.card_points)) {
    parts.push(`${entry.card_points[0]}–${entry.card_points[1]}`); // a hand thrown in
  } else if (entry.card_points) {
    const team = entry.card_points.team === "team_b" ? config.teams[1] : config.teams[0];
    parts.push(`${entry.card_points.points} (${team})`);
  }
  return parts.join(" ");
}

// Each field's error slot is read out when it changes, and names the field's controls.
if (form) {
  form.querySelectorAll("[data-error-for]").forEach((slot) => {
    if (!slot.id) slot.id = `error-${slot.dataset.errorFor}`;
    slot.setAttribute("aria-live", "polite");
  });
}

function controlsOf(name) {
  if (name === "runs") return [...form.querySelectorAll("[data-run]")];
  return [...form.querySelectorAll(`[name="${name}"]`)];
}

function clearErrors() {
  if (!form) return;
  form.querySelectorAll("[data-error-for]").forEach((el) => { el.textContent = ""; });
  form.querySelectorAll(".has-error").forEach((el) => el.classList.remove("has-error"));
  form.querySelectorAll("[aria-invalid]").forEach((control) => {
    control.removeAttribute("aria-invalid");
    const others = (control.getAttribute("aria-describedby") || "").split(/\s+/)
      .filter((id) => id && !form.querySelector(`[data-error-for]#${CSS.escape(id)}`));
    if (others.length) control.setAttribute("aria-describedby", others.join(" "));
    else control.removeAttribute("aria-describedby");
  });
}

// The reasons beside their fields, the fields marked as in error. ``focus``: after a save,
// take the scorekeeper to the first field in error (or to the message, if it names none).
function showErrors(data, { focus = false } = {}) {
  clearErrors();
  const fields = (data && data.fields) || {};
  let placed = false;
  let first = null;
  for (const [path, reasons] of Object.entries(fields)) {
    const name = fieldOf(path);
    const slot = name && form.querySelector(`[data-error-for="${name}"]`);
    if (slot) {
      slot.textContent = named(path, [].concat(reasons).join(" "));
      const box = slot.closest(".field");
      if (box) box.classList.add("has-error");
      if (box && box.tagName === "DETAILS") box.open = true;
      const controls = controlsOf(name);
      for (const control of controls) {
        control.setAttribute("aria-invalid", "true");
        const ids = (control.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
        if (!ids.includes(slot.id)) control.setAttribute("aria-describedby", [...ids, slot.id].join(" "));
      }
      const control = controls.find((c) => c.checked) || controls[0];
      if (control && (!first || first.compareDocumentPosition(control) & Node.DOCUMENT_POSITION_PRECEDING)) {
        first = control;
      }
      placed = true;
    }
  }
  if (focus) goTo(first);
  return placed;
}

// Scroll to ``control`` (or, with none, to the preview that says what is wrong) and focus it.
function goTo(control) {
  const target = control || preview;
  if (!control) preview.tabIndex = -1;
  (target.closest(".field") || target).scrollIntoView({ block: "center" });
  target.focus({ preventScroll: true });
}

// The count's plain arithmetic, in the engine's words (scoring/engine/scoring.py): caught as
// typed, signal or not. Everything else is the server's to judge.
function countProblem() {
  const points = value("count");
  if (points === "" || value("caller") === "" || value("caller") === "void" || value("misplay_by") !== "") {
    return null;
  }
  const total = value("trump") === "none" ? 130 : 162;
  const n = Number(points);
  if (!Number.isInteger(n) || n < 0 || n > total) {
    return `card points ${n} are impossible: a team takes 0 to ${total}`;
  }
  if (n === 1 || n === total - 1) return `card points ${n} are impossible: no card is worth 1`;
  return null;
}

// ------------------------------------------------------------------ preview
let previewTimer = null;
let previewSeq = 0;

function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(runPreview, 250);
}

async function runPreview({ again = true } = {}) {
  const entry = buildEntry();
  // preview once the line is filled in enough to say something (the server judges the rest)
  const caller = value("caller");
  const complete = caller === "void"
    || (caller !== "" && value("trump") !== "" && (value("count") !== "" || value("misplay_by") !== ""));
  if (!complete) {
    // what the last preview refused (a misplay and a throw-in together, ...) is gone with it
    if (preview.classList.contains("error")) clearErrors();
    preview.hidden = true;
    return;
  }
  const seq = ++previewSeq;
  await renderOutbox();
  if (seq !== previewSeq) return;
  preview.hidden = false;
  const problem = countProblem();
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
    preview.textContent = editing && editing.conflict
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
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ entry }),
    });
  } catch {
    preview.className = "preview";
    preview.textContent = words.previewOffline;
    return;
  }
  if (seq !== previewSeq) return;
  const data = await response.json().catch(() => ({}));
  if (seq !== previewSeq) return;
  if (response.ok && data.ok && typeof data.dealer === "number"
    && dealerSeat(number) !== undefined && data.dealer !== dealerSeat(number)) {
    // the server previewed another hand than this one (another phone saved a hand meanwhile):
    // look at the game again and preview this hand as it now stands, or say nothing of it
    clearErrors();
    preview.className = "preview";
    preview.dataset.outcome = "";
    preview.textContent = words.previewWaiting;
    await refreshLive(true);
    if (seq === previewSeq) {
      if (again) runPreview({ again: false });
      else preview.hidden = true;
    }
    return;
  }
  if (response.ok && data.ok) {
    clearErrors();
    preview.className = "preview";
    preview.dataset.outcome = data.outcome;
    preview.innerHTML = "";
    const outcome = document.createElement("div");
    outcome.className = "outcome";
    outcome.innerHTML = `<span class="mark ${data.outcome}"></span>`;
    outcome.firstChild.textContent = data.outcome_label;
    const line = document.createElement("div");
    line.className = "preview-score";
    line.textContent = `${config.teams[0]} +${data.points[0]} → ${data.totals[0]} · ${config.teams[1]} +${data.points[1]} → ${data.totals[1]}`;
    preview.append(outcome, line);
    if (data.over && data.winner) {
      const end = document.createElement("div");
      end.className = "winner";
      end.textContent = words.wins.replace("%(team)s", data.winner);
      preview.append(end);
    }
  } else {
    preview.className = "preview error";
    preview.dataset.outcome = "";
    const placed = showErrors(data);
    const message = named(null, data.message || "");
    preview.textContent = placed ? message : (message || response.statusText);
  }
}

// ------------------------------------------------------------------ the live sheet
let refreshing = false;

async function refreshLive(force = false) {
  if (refreshing) return;
  refreshing = true;
  try {
    const live = document.getElementById("live");
    const version = force ? "" : live.dataset.version;
    const response = await fetch(`${config.urls.sheet}?version=${version}`, { credentials: "same-origin" });
    if (response.status === 200) {
      const html = await response.text();
      const holder = document.createElement("div");
      holder.innerHTML = html;
      const fresh = holder.querySelector("#live");
      if (fresh) {
        live.replaceWith(fresh);
        const before = config.nextNumber;
        config.nextNumber = Number(fresh.dataset.next);
        if (config.nextNumber !== before && form && !editing && formNumber !== null) {
          // another phone's hand: a preview shown or on its way may be of another hand than
          // the form's now; judge the form's hand again as the game now stands
          previewSeq += 1;
          clearTimeout(previewTimer);
          previewTimer = setTimeout(runPreview, 0);
        }
        const undo = document.getElementById("undo-link");
        if (undo) undo.hidden = fresh.dataset.status !== "in_progress" || config.nextNumber <= 1;
        if (fresh.dataset.status !== "in_progress" && form) window.location.reload();
      }
    }
  } catch {
    // no signal: the sheet stays as it is
  } finally {
    refreshing = false;
    await renderOutbox();
  }
}

async function renderOutbox() {
  const entries = await outbox.pending();
  queue = entries;
  if (editing && !entries.some((entry) => entry.key === editing.key)) editing = null;
  const pendingRows = document.getElementById("pending-rows");
  if (pendingRows) pendingRows.innerHTML = "";
  outboxList.innerHTML = "";
  outboxBox.hidden = entries.length === 0;
  outboxTitle.textContent = words.waiting.replace("%(count)s", entries.length);
  for (const entry of entries) {
    const inForm = editing && editing.key === entry.key;
    const item = document.createElement("li");
    item.dataset.key = entry.key;
    item.textContent = `${entry.label} — `;
    if (inForm) {
      item.append(words.inForm);
    } else if (entry.error) {
      // the reason stays beside the refused hand until it is put right or discarded
      item.className = "refused";
      const reason = document.createElement("span");
      reason.className = "field-error";
      if (numberTaken(entry)) {
        reason.textContent = `${words.refused}: ${alreadyEntered(entry.body.number)} `;
        reason.append(correctLink(entry.body.number));
      } else {
        reason.textContent = `${words.refused}: ${named(null, entry.error)}`;
      }
      item.append(reason);
    } else {
      item.append(words.notSent);
    }
    if (entry.error) {
      const actions = document.createElement("span");
      actions.className = "outbox-actions";
      if (entry.form && form && !inForm) {
        const edit = document.createElement("button");
        edit.type = "button";
        edit.textContent = words.edit;
        edit.addEventListener("click", () => takeBack(entry));
        actions.append(edit);
      }
      const discard = document.createElement("button");
      discard.type = "button";
      discard.className = "danger";
      discard.textContent = words.discard;
      discard.addEventListener("click", () => takeOut(entry));
      actions.append(discard);
      item.append(" ", actions);
    }
    outboxList.append(item);
    if (pendingRows) {
      const row = document.createElement("tr");
      row.className = "pending";
      const cell = document.createElement("td");
      cell.colSpan = 5;
      cell.textContent = `${entry.label} — ${entry.error ? words.refused : words.notSent}`;
      row.append(cell);
      pendingRows.append(row);
    }
  }
  showNumber();
}

// ------------------------------------------------------------------ which hand the form is
// A new hand comes after every hand on this phone, or is the server's next one.
function freshNumber() {
  const numbers = queue.map((entry) => entry.body && entry.body.number).filter((n) => typeof n === "number");
  return numbers.length ? Math.max(...numbers) + 1 : config.nextNumber;
}

function handNumber() {
  if (editing) return editing.number;
  return formNumber ?? freshNumber();
}

function dealerSeat(number) {
  return config.dealers[number] ?? (config.dealers[1] === undefined ? undefined : (config.dealers[1] + number - 1) % 4);
}

function dealerOf(number) {
  const seat = dealerSeat(number);
  return seat === undefined ? "" : config.seats[seat];
}

// The hands on this phone to be sent before the one in the form.
function handsAhead() {
  const mine = editing && queue.find((other) => other.key === editing.key);
  return mine ? queue.filter((other) => other.created < mine.created) : queue;
}

// The title, the dealer line (the server's, until hands typed here move it on) and what the
// scorekeeper must know when another phone has entered the hand being typed.
function showNumber() {
  if (!form) return;
  const number = handNumber();
  const title = document.getElementById("hand-title");
  if (title) title.textContent = `${words.hand} ${number}`;
  const line = document.getElementById("next-deal");
  let own = line && line.querySelector(".pad-deal");
  const dealer = dealerOf(number);
  if (line && dealer && (own || number !== config.nextNumber)) {
    if (!own) {
      // the server's "Hand N: <strong>dealer</strong> deals." gives way to this hand's
      const named = line.querySelector("strong");
      if (!named || named.parentNode !== line || named.previousElementSibling) return;
      while (line.firstChild !== named) line.firstChild.remove();
      if (named.nextSibling && named.nextSibling.nodeType === Node.TEXT_NODE) named.nextSibling.remove();
      own = document.createElement("span");
      own.className = "pad-deal";
      named.replaceWith(own, " ");
    }
    const [before, after] = words.deals.replace("%(number)s", number).split("%(dealer)s");
    const strong = document.createElement("strong");
    strong.textContent = dealer;
    own.replaceChildren(before, strong, after || "");
  }
  if (conflictNote) {
    if (editing && editing.conflict && number < config.nextNumber) {
      // the same hand entered twice, almost always: it keeps its number, to be discarded here
      // or hand N corrected
      if (conflictNote.dataset.shown !== `${editing.key}:${number}`) {
        conflictNote.dataset.shown = `${editing.key}:${number}`;
        const discard = document.createElement("button");
        discard.type = "button";
        discard.className = "danger";
        discard.id = "discard-conflict";
        discard.textContent = words.discardThis;
        discard.addEventListener("click", () => {
          const mine = editing && queue.find((other) => other.key === editing.key);
          if (mine) takeOut(mine);
        });
        const actions = document.createElement("span");
        actions.className = "outbox-actions";
        const link = correctLink(number);
        link.className = "button secondary";
        actions.append(discard, link);
        conflictNote.replaceChildren(`${alreadyEntered(number)} `, actions);
      }
      conflictNote.hidden = false;
    } else {
      let note = "";
      if ((editing || formNumber !== null) && number < config.nextNumber) {
        note = words.numberTaken.replace("%(number)s", number);
      }
      delete conflictNote.dataset.shown;
      conflictNote.textContent = note;
      conflictNote.hidden = !note;
    }
  }
}

// ------------------------------------------------------------------ refused hands
// The form as typed, kept with a hand in the outbox so a refused hand can be put back.
function formValues() {
  return [...form.elements]
    .filter((field) => field.name && field.name !== "csrfmiddlewaretoken")
    .filter((field) => !["radio", "checkbox"].includes(field.type) || field.checked)
    .map((field) => [field.name, field.value]);
}

function restore(values) {
  for (const field of form.elements) {
    if (!field.name || field.name === "csrfmiddlewaretoken") continue;
    const given = values.filter(([name]) => name === field.name).map(([, text]) => text);
    if (field.type === "radio" || field.type === "checkbox") field.checked = given.includes(field.value);
    else if (field.tagName === "SELECT") field.value = given[0] ?? field.querySelector("option[selected]")?.value ?? "";
    else field.value = given[0] ?? field.defaultValue;
  }
  form.dataset.teamTouched = "1"; // the team whose count was typed is the one kept
}

// Out of the outbox (discarded). The hands queued behind it were never sent (the outbox stops
// at a refused one): each moves up a number, unless another phone has entered the number it
// had, and the queue goes on.
async function takeOut(entry) {
  await refreshLive(true);
  const taken = entry.body && entry.body.number < config.nextNumber;
  const behind = (await outbox.pending()).filter((other) => other.created > entry.created);
  const inForm = editing && editing.key === entry.key;
  await outbox.remove(entry.key);
  if (!taken) {
    for (const other of behind) {
      if (other.body && typeof other.body.number === "number") {
        other.body.number -= 1;
        other.label = describe(other.body, other.body.number);
        await outbox.update(other);
      }
    }
    if (formNumber !== null) formNumber -= 1;
  }
  if (inForm) {
    editing = null;
    form.reset();
  }
  await renderOutbox();
  await outbox.flush();
}

// Back into the form, as typed, with the server's reasons beside the fields. It keeps its
// place in the queue: nothing behind it is sent until it is saved again or discarded.
async function takeBack(entry, { focus = true } = {}) {
  if (!form || !entry.form) return;
  clearTimeout(previewTimer);
  previewSeq += 1; // a preview of what was in the form before is no longer this form's
  restore(entry.form);
  const number = entry.body && typeof entry.body.number === "number" ? entry.body.number : handNumber();
  editing = { key: entry.key, number, conflict: !!(entry.fields && entry.fields.number) };
  formNumber = null;
  await renderOutbox();
  showErrors({ fields: entry.fields }, { focus: false });
  preview.hidden = false;
  preview.className = "preview error";
  preview.dataset.outcome = "";
  preview.textContent = named(null, entry.error);
  if (focus) {
    const first = form.querySelector("[aria-invalid=true]:checked") || form.querySelector("[aria-invalid=true]");
    goTo(first);
  }
}

// The form is changed. A refused hand put back keeps its number, even one another phone has
// entered (never renumbered: it is discarded, or that hand corrected).
function formChanged() {
  if (editing) {
    // nothing to do: its number is its own
  } else if (!edited(form)) {
    formNumber = null;
  } else if (formNumber === null) {
    formNumber = freshNumber();
  }
  showNumber();
}

outbox.addEventListener("change", renderOutbox);
outbox.addEventListener("sent", () => refreshLive(true));
outbox.addEventListener("refused", async (event) => {
  const { entry } = event.detail;
  await renderOutbox();
  const last = queue.at(-1);
  if (form && entry.form && !editing && last && last.key === entry.key && !edited(form)) {
    // the hand just saved, with nothing typed since: it goes back to be put right
    await takeBack(entry);
    return;
  }
  // otherwise its reason is shown beside it in the outbox, where it can be put back or discarded
  refreshLive(true);
});

// ------------------------------------------------------------------ entering a hand
if (form) {
  form.addEventListener("change", (event) => {
    if (event.target.name === "caller" && event.target.value !== "void") {
      // the count usually written is the calling team's: preselect it
      const team = Number(event.target.value) % 2 === 0 ? "team_a" : "team_b";
      const radio = form.querySelector(`[name="count_team"][value="${team}"]`);
      if (radio && !form.dataset.teamTouched) radio.checked = true;
    }
    if (event.target.name === "count_team") form.dataset.teamTouched = "1";
    formChanged();
    schedulePreview();
  });
  form.addEventListener("input", () => {
    formChanged();
    schedulePreview();
  });
  form.addEventListener("reset", () => {
    // a refused hand in the form goes back to waiting in the outbox, beside its reason
    editing = null;
    formNumber = null;
    clearTimeout(previewTimer);
    previewSeq += 1;
    setTimeout(() => {
      clearErrors();
      preview.hidden = true;
      delete form.dataset.teamTouched;
      renderOutbox();
    }, 0);
  });
  let saving = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (saving) return; // a second tap while the first is being saved is the same hand
    if (value("caller") === "") {
      const required = form.querySelector('[data-error-for="caller"]').dataset.required || "?";
      showErrors({ fields: { caller: [required] } }, { focus: true });
      return;
    }
    const problem = countProblem();
    if (problem) {
      showErrors({ fields: { card_points: [problem] } }, { focus: true });
      preview.hidden = false;
      preview.className = "preview error";
      preview.textContent = problem;
      return;
    }
    saving = true;
    const button = event.submitter || form.querySelector("[type=submit]");
    if (button) button.disabled = true;
    try {
      const entry = buildEntry();
      await renderOutbox();
      const number = handNumber();
      if (editing && editing.conflict && number < config.nextNumber && conflictNote) {
        // saved again, it would be refused again: it is discarded, or that hand corrected
        clearErrors();
        preview.hidden = false;
        preview.className = "preview error";
        preview.dataset.outcome = "";
        preview.textContent = alreadyEntered(number);
        conflictNote.tabIndex = -1;
        conflictNote.scrollIntoView({ block: "center" });
        conflictNote.focus({ preventScroll: true });
        return;
      }
      const typed = {
        body: { entry_kind: "summary", number, ...entry },
        label: describe(entry, number),
        form: formValues(),
      };
      const refused = editing && queue.find((other) => other.key === editing.key);
      // a refused hand put right takes its place again, first in line; a new one goes last
      if (refused) await outbox.replace(refused, typed);
      else await outbox.add({ url: config.urls.hands, ...typed });
      form.reset();
      preview.hidden = true;
      await outbox.flush();
    } finally {
      saving = false;
      if (button) button.disabled = false;
    }
  });
}

window.addEventListener("online", () => refreshLive(true));
// Back (or forward) to a page the browser kept: what it shows may be old, look again now.
window.addEventListener("pageshow", (event) => {
  if (event.persisted) refreshLive(true).then(() => outbox.flush());
});
renderOutbox().then(() => outbox.flush());
// Other score-pads, corrections and dispute verdicts: look for a new version now and then.
setInterval(() => {
  if (!navigator.onLine) return;
  const live = document.getElementById("live");
  const waiting = live && live.dataset.pendingDisputes === "1";
  if (waiting || !document.hidden) refreshLive();
}, 4000);
