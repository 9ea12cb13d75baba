// Cookie consent for every page (plain script: the landing page ships no React).
// Stores the choice in the unicum_consent cookie, sends the proof to /api/consent, and sends page views
// to /api/page-view only when analytics were accepted.
(function () {
  var NAME = "unicum_consent";
  var VERSION = "2025-08-19";
  var MAX_AGE = 180 * 24 * 3600;

  function read() {
    var m = document.cookie.match(/(?:^|;\s*)unicum_consent=([^;]*)/);
    if (!m) return null;
    var p = new URLSearchParams(decodeURIComponent(m[1]));
    if (p.get("v") !== VERSION || !/^[0-9a-f-]{36}$/.test(p.get("id") || "")) return null;
    return { preferences: p.get("p") === "1", analytics: p.get("a") === "1", marketing: p.get("m") === "1", visitorId: p.get("id") };
  }

  function uuid() {
    return crypto.randomUUID ? crypto.randomUUID() : "00000000-0000-4000-8000-" + String(Date.now()).padStart(12, "0").slice(-12);
  }

  function pageView() {
    var c = read();
    if (!c || !c.analytics) return;
    var body = JSON.stringify({ path: location.pathname, referrer: document.referrer || null });
    if (!(navigator.sendBeacon && navigator.sendBeacon("/api/page-view", new Blob([body], { type: "application/json" })))) {
      fetch("/api/page-view", { method: "POST", headers: { "Content-Type": "application/json" }, body: body, keepalive: true });
    }
  }

  function save(choice) {
    var previous = read();
    choice.visitorId = (previous && previous.visitorId) || uuid();
    var value = "v=" + VERSION + "&p=" + (choice.preferences ? 1 : 0) + "&a=" + (choice.analytics ? 1 : 0) + "&m=" + (choice.marketing ? 1 : 0) + "&id=" + choice.visitorId;
    document.cookie = NAME + "=" + encodeURIComponent(value) + "; Path=/; Max-Age=" + MAX_AGE + "; SameSite=Lax" + (location.protocol === "https:" ? "; Secure" : "");
    var banner = document.getElementById("consent-banner");
    if (banner) banner.hidden = true;
    fetch("/api/consent", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(choice) })
      .catch(function () {})
      .then(function () {
        if (choice.analytics && !(previous && previous.analytics)) pageView();
      });
    document.dispatchEvent(new CustomEvent("unicum:consent", { detail: choice }));
  }

  function openPreferences() {
    var dialog = document.getElementById("cookie-preferences");
    if (!dialog) return;
    var c = read() || { preferences: false, analytics: false, marketing: false };
    var form = dialog.querySelector("form");
    form.elements.preferences.checked = c.preferences;
    form.elements.analytics.checked = c.analytics;
    form.elements.marketing.checked = c.marketing;
    dialog.showModal();
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("[data-consent-action],[data-open-cookie-preferences]");
    if (!target) return;
    if (target.hasAttribute("data-open-cookie-preferences")) {
      event.preventDefault();
      openPreferences();
      return;
    }
    var action = target.getAttribute("data-consent-action");
    if (action === "accept") save({ preferences: true, analytics: true, marketing: true });
    else if (action === "reject") save({ preferences: false, analytics: false, marketing: false });
    else if (action === "close") document.getElementById("cookie-preferences").close();
  });

  document.addEventListener("submit", function (event) {
    if (event.target.id !== "cookie-preferences-form") return;
    var f = event.target.elements;
    save({ preferences: f.preferences.checked, analytics: f.analytics.checked, marketing: f.marketing.checked });
  });

  window.unicumPageView = pageView;
  pageView();
})();
