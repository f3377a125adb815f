/*
 * The page language's texts and numbers. The translations come from Django's JavaScript
 * catalogue (core.views.javascript_catalog: /jsi18n/<lang>.js, or /annotation/i18n/<lang>.js on the
 * crowdworker pages; a classic script the page loads before its modules: it defines window.gettext
 * and window.ngettext); without it the English text is shown.
 *
 * gettext("…") / ngettext("one", "many", n) -> the translated text
 * fmt(gettext("…%(n)s…"), {n: 3}) -> the text with its values (numbers in the page's digits)
 * digits("3:05") -> "۳:۰۵" on a Persian page; decimal(0.5, 2) -> "0.50" / "۰٫۵۰"
 * percent(0.615) -> "62%" / "۶۲٪"
 */
const lang = document.documentElement.lang || "en";

export function gettext(text) {
  return typeof window.gettext === "function" ? window.gettext(text) : text;
}

export function ngettext(one, many, n) {
  if (typeof window.ngettext === "function") {
    return window.ngettext(one, many, n);
  }
  return n === 1 ? one : many;
}

/** Western digits written in the page language's digits. */
export function digits(text) {
  if (lang.split("-")[0] !== "fa") {
    return String(text);
  }
  return String(text).replace(/[0-9]/g, (d) => "۰۱۲۳۴۵۶۷۸۹"[Number(d)]);
}

/** Named placeholders %(name)s filled in, numbers written in the page language's digits. */
export function fmt(text, params) {
  return text.replace(/%\((\w+)\)s/g, (whole, name) => {
    const value = params[name];
    return typeof value === "number" ? digits(value) : String(value);
  });
}

/** `value` with `places` decimals, in the page language's digits and decimal sign. */
export function decimal(value, places) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: places, maximumFractionDigits: places }).format(value);
}

/** A share (0..1) as a whole percentage in the page language's digits and percent sign. */
export function percent(share) {
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(share);
}
