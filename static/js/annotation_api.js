/*
 * Calls to the annotation REST API (annotation/api_urls.py) shared by the annotation pages,
 * and showing their error messages. Session auth: the CSRF token comes from Django's cookie.
 *
 * StumperApi.call(base + path, body?) -> Promise<{ok, data}> (POST when body is given; never rejects)
 * StumperApi.messagesOf(payload) -> [str]; StumperApi.showErrors(element, payload | null)
 * StumperApi.fmt(translated, {n: 3}) with translated = gettext("…%(n)s…") -> the translated text with its values;
 * StumperApi.digits("3:05") -> the page language's digits ("۳:۰۵" in Persian);
 * StumperApi.decimal(0.5, 2) -> "0.50" / "۰٫۵۰". The catalogue (gettext) is /i18n/js/.
 */
(function () {
  "use strict";

  var lang = document.documentElement.lang || "en";
  if (!window.gettext) { window.gettext = function (text) { return text; }; }
  if (!window.ngettext) { window.ngettext = function (one, many, n) { return n === 1 ? one : many; }; }

  function digits(text) {
    if (lang.split("-")[0] !== "fa") { return String(text); }
    return String(text).replace(/[0-9]/g, function (d) { return "۰۱۲۳۴۵۶۷۸۹"[Number(d)]; });
  }

  function fmt(text, params) {
    // Named placeholders, numbers written in the page language's digits.
    return text.replace(/%\((\w+)\)s/g, function (whole, name) {
      var value = params[name];
      return typeof value === "number" ? digits(value) : String(value);
    });
  }

  function decimal(value, places) {
    return new Intl.NumberFormat(lang, {minimumFractionDigits: places, maximumFractionDigits: places}).format(value);
  }

  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function call(url, body) {
    var init = {method: body === undefined ? "GET" : "POST", credentials: "same-origin",
                headers: {"Accept": "application/json", "X-CSRFToken": csrfToken()}};
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(url, init).then(function (response) {
      if (response.status === 204) { return {ok: true, data: null}; }
      return response.json().then(function (json) { return {ok: response.ok, data: json}; },
                                   function () { return {ok: false, data: {detail: fmt(gettext("The server answered %(status)s."), {status: response.status})}}; });
    }, function () {
      return {ok: false, data: {detail: gettext("No connection to the server. Nothing was lost: try again in a moment.")}};
    });
  }

  function messagesOf(payload) {
    var out = [];
    (function walk(value) {
      if (typeof value === "string") { out.push(value); }
      else if (Array.isArray(value)) { value.forEach(walk); }
      else if (value && typeof value === "object") { Object.keys(value).forEach(function (k) { walk(value[k]); }); }
    })(payload);
    return out.length ? out : [gettext("Something went wrong.")];
  }

  function showErrors(element, payload) {
    element.textContent = "";
    element.hidden = !payload;
    if (!payload) { return; }
    messagesOf(payload).forEach(function (text) {
      var p = document.createElement("p");
      p.textContent = text;
      element.appendChild(p);
    });
  }

  window.StumperApi = {call: call, messagesOf: messagesOf, showErrors: showErrors, fmt: fmt, digits: digits,
                      decimal: decimal};
})();
