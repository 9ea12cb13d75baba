// Whether the side navigation is collapsed (issue 33): a first-party cookie, so the server renders the page as the
// student left it and nothing moves after hydration (it lived in localStorage: the server always drew the column
// expanded and the page jumped for a student who had collapsed it). A choice of the interface the student makes
// by pressing the toggle, not a tracker.
export const NAV_COOKIE = "unicum_nav";
/** The key the choice had in localStorage before: read once, to carry it into the cookie. */
export const LEGACY_NAV_KEY = "unicum_sidebar_collapsed";
const MAX_AGE_SECONDS = 365 * 24 * 3600;

/** Whether a request's Cookie header says the navigation is collapsed. */
export function navCollapsedFrom(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(";").some((part) => part.trim() === `${NAV_COOKIE}=collapsed`);
}

/** Whether a request's Cookie header holds any choice (an unset cookie may still have a legacy localStorage one). */
export function navChoiceIn(cookieHeader: string | null | undefined): boolean {
  return !!cookieHeader?.split(";").some((part) => part.trim().startsWith(`${NAV_COOKIE}=`));
}

/** The cookie that stores the choice for a year (sent on every page of the site). */
export function navCookie(collapsed: boolean, secure: boolean): string {
  return `${NAV_COOKIE}=${collapsed ? "collapsed" : "expanded"}; Path=/; Max-Age=${MAX_AGE_SECONDS}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Stores the choice in the browser (the Cookie Store API is not in every browser the spec supports). */
export function storeNavChoice(collapsed: boolean) {
  // biome-ignore lint/suspicious/noDocumentCookie: a plain first-party cookie, written where cookieStore is missing
  document.cookie = navCookie(collapsed, location.protocol === "https:");
}
