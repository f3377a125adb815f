/*
 * The one helper for calls to the app's JSON APIs (session auth: the CSRF token comes from
 * Django's cookie) and for showing their error messages. Used by the annotation pages.
 *
 * call(url, body?) -> Promise<{ok, data}> (POST when body is given; never rejects)
 * messagesOf(payload) -> [str]; showErrors(element, payload | null)
 * Its own messages are in the page's language (lib/i18n.js) where the page loads a catalogue.
 */
import { fmt, gettext } from "./i18n.js";

/** Django's CSRF token from its cookie ("" when there is none). */
export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/** GET `url`, or POST `body` as JSON; resolves to {ok, data} and never rejects. */
export async function call(url, body) {
  const init = {
    method: body === undefined ? "GET" : "POST",
    credentials: "same-origin",
    headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
  };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    return { ok: false, data: { detail: gettext("No connection to the server. Nothing was lost: try again in a moment.") } };
  }
  if (response.status === 204) {
    return { ok: true, data: null };
  }
  try {
    return { ok: response.ok, data: await response.json() };
  } catch {
    return { ok: false, data: { detail: fmt(gettext("The server answered %(status)s."), { status: response.status }) } };
  }
}

/** Every message string in a DRF error payload (nested dicts and lists), in order. */
export function messagesOf(payload) {
  const out = [];
  const walk = (value) => {
    if (typeof value === "string") {
      out.push(value);
    } else if (Array.isArray(value)) {
      value.forEach(walk);
    } else if (value && typeof value === "object") {
      Object.values(value).forEach(walk);
    }
  };
  walk(payload);
  return out.length ? out : [gettext("Something went wrong.")];
}

/** Replace `element`'s content with one paragraph per message (hidden when payload is null). */
export function showErrors(element, payload) {
  element.textContent = "";
  element.hidden = !payload;
  if (!payload) {
    return;
  }
  for (const text of messagesOf(payload)) {
    const p = document.createElement("p");
    p.textContent = text;
    element.appendChild(p);
  }
}
