// What the pages' scripts share about forms.

// Whether someone has changed ``form`` from what the page was served with: a box typed in,
// a choice ticked or picked (hidden fields, which no one types in, do not count).
export function edited(form) {
  return [...form.elements].some((field) => {
    if (field.type === "radio" || field.type === "checkbox") {
      return field.checked !== field.defaultChecked;
    }
    if (field.tagName === "SELECT") {
      return [...field.options].some((option) => option.selected !== option.defaultSelected);
    }
    return "defaultValue" in field && field.type !== "hidden" && field.value !== field.defaultValue;
  });
}
