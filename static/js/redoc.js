// The Redoc page of the API (/api/redoc/), without inline scripts: the Content-Security-Policy
// allows none. The container (templates/drf_spectacular/redoc.html) carries the schema URL, the
// Redoc settings (JSON) and the local logo; the Redoc bundle has loaded before this module runs.
//
// Redoc always shows an "API docs by Redocly" logo from cdn.redoc.ly: any image source there is
// replaced with our own icon before Redoc renders, so the page fetches nothing from outside.

const OUTSIDE = "https://cdn.redoc.ly/";
const container = document.getElementById("redoc-container");
const local = (value) => (String(value).startsWith(OUTSIDE) ? container.dataset.localLogo : value);

const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
Object.defineProperty(HTMLImageElement.prototype, "src", {
  get() { return src.get.call(this); },
  set(value) { src.set.call(this, local(value)); },
});
const setAttribute = Element.prototype.setAttribute;
Element.prototype.setAttribute = function (name, value) {
  return setAttribute.call(this, name, this instanceof HTMLImageElement && name === "src" ? local(value) : value);
};

window.Redoc.init(container.dataset.schemaUrl, JSON.parse(container.dataset.settings || "{}"), container);
