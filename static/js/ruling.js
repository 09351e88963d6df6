// A director's ruling on the day's page: overruling needs a note, so the form says so beside
// the note before sending (the service refuses it too). Forms are found when sent, since the
// day redraws itself.
document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-ruling]");
  if (!form) return;
  const overruled = form.querySelector("input[name=ruling][value=overruled]");
  const note = form.querySelector("input[name=note]");
  const error = form.querySelector("[data-error-for=note]");
  if (overruled?.checked && note && !note.value.trim()) {
    event.preventDefault();
    if (error) error.textContent = error.dataset.required;
    note.setAttribute("aria-invalid", "true");
    note.focus();
  }
});
