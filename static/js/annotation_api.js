/*
 * Calls to the annotation REST API (annotation/api_urls.py) shared by the annotation pages,
 * and showing their error messages. Session auth: the CSRF token comes from Django's cookie.
 *
 * StumperApi.call(base + path, body?) -> Promise<{ok, data}> (POST when body is given; never rejects)
 * StumperApi.messagesOf(payload) -> [str]; StumperApi.showErrors(element, payload | null)
 * StumperApi.fmt(translated, {n: 3}) with translated = gettext("…%(n)s…") -> the translated text with its values;
 * StumperApi.digits("3:05") -> the page language's digits ("۳:۰۵" in Persian);
 * StumperApi.decimal(0.5, 2) -> "0.50" / "۰٫۵۰". The catalogue (gettext) is /annotation/i18n/<lang>.js.
 * StumperApi.paragraphTimer(base, sessionId, seconds, onTick(seconds)) -> {stop()}: time on the paragraph.
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

  function paragraphTimer(base, sessionId, seconds, onTick) {
    // The server adds up the page's heartbeats (annotation/services/session_time.py); between
    // them the page counts on while it is visible, and a hidden page stops counting.
    var known = seconds, since = Date.now(), every = 15000, stopped = false, held = false, beatTimer = null;
    var inflight = null;  // the heartbeat request on its way, if any
    function visible() { return document.visibilityState !== "hidden"; }
    function now() { return known + (visible() ? Math.floor((Date.now() - since) / 1000) : 0); }
    function beat() {
      window.clearTimeout(beatTimer);
      if (stopped || held || !visible()) { return; }
      inflight = call(base + "sessions/" + sessionId + "/heartbeat/", {}).then(function (result) {
        inflight = null;
        if (result.ok) {
          known = result.data.active_seconds;
          since = Date.now();
          every = result.data.heartbeat_seconds * 1000;
        } else if (result.data && result.data.session) {
          stopped = true;  // submitted or discarded (in another tab): the time is final
        }
        if (!stopped) { beatTimer = window.setTimeout(beat, every); }
      });
    }
    document.addEventListener("visibilitychange", function () {
      if (visible()) { since = Date.now(); beat(); } else { known += Math.floor((Date.now() - since) / 1000); }
    });
    var tickTimer = window.setInterval(function () { if (!stopped) { onTick(now()); } }, 1000);
    onTick(now());
    beat();
    return {
      stop: function () { stopped = true; window.clearInterval(tickTimer); window.clearTimeout(beatTimer); },
      // Before submitting: no heartbeat may reach the server after the paragraph is finished.
      hold: function () { held = true; window.clearTimeout(beatTimer); return inflight || Promise.resolve(); },
      release: function () { held = false; beat(); },
    };
  }

  window.StumperApi = {call: call, messagesOf: messagesOf, showErrors: showErrors, fmt: fmt, digits: digits,
                      decimal: decimal, paragraphTimer: paragraphTimer};
})();
