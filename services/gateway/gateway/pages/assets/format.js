// Times in the browser's own time zone, Traditional Chinese wording.

const absolute = new Intl.DateTimeFormat("zh-TW", {
  year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hour12: false,
});

export function formatTime(date) {
  return date ? absolute.format(date) : "";
}

export function timeElement(date, prefix) {
  const element = document.createElement("time");
  element.dateTime = date.toISOString();
  element.textContent = `${prefix}${formatTime(date)}`;
  return element;
}

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}
