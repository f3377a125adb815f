/*
 * Calls to the annotation REST API (annotation/api_urls.py) shared by the annotation pages,
 * and showing their error messages. Session auth: the CSRF token comes from Django's cookie.
 *
 * StumperApi.call(base + path, body?) -> Promise<{ok, data}> (POST when body is given; never rejects)
 * StumperApi.messagesOf(payload) -> [str]; StumperApi.showErrors(element, payload | null)
 */
(function () {
  "use strict";

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
                                   function () { return {ok: false, data: {detail: "The server answered " + response.status + "."}}; });
    }, function () {
      return {ok: false, data: {detail: "No connection to the server. Nothing was lost: try again in a moment."}};
    });
  }

  function messagesOf(payload) {
    var out = [];
    (function walk(value) {
      if (typeof value === "string") { out.push(value); }
      else if (Array.isArray(value)) { value.forEach(walk); }
      else if (value && typeof value === "object") { Object.keys(value).forEach(function (k) { walk(value[k]); }); }
    })(payload);
    return out.length ? out : ["Something went wrong."];
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

  window.StumperApi = {call: call, messagesOf: messagesOf, showErrors: showErrors};
})();
