// Cookie consent: the choice lives in a first-party cookie readable by the server (to render the banner
// or not, and to decide whether a page view may be stored) and by public/consent.js.
export const CONSENT_COOKIE = "unicum_consent";
export const CONSENT_POLICY_VERSION = "2025-08-19";
export const CONSENT_MAX_AGE_DAYS = 180;

export type ConsentChoice = { preferences: boolean; analytics: boolean; marketing: boolean; visitorId: string };

/** Cookie value: "v=2025-08-19&p=1&a=0&m=0&id=<uuid>". */
export function serializeConsent(choice: ConsentChoice): string {
  const flag = (b: boolean) => (b ? "1" : "0");
  return `v=${CONSENT_POLICY_VERSION}&p=${flag(choice.preferences)}&a=${flag(choice.analytics)}&m=${flag(choice.marketing)}&id=${choice.visitorId}`;
}

export function parseConsent(cookieHeader: string | null | undefined): ConsentChoice | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== CONSENT_COOKIE) continue;
    let params: URLSearchParams;
    try {
      params = new URLSearchParams(decodeURIComponent(rest.join("=")));
    } catch {
      return null; // not percent-encoding (`%`): no choice made, never a 500
    }
    const visitorId = params.get("id") ?? "";
    if (params.get("v") !== CONSENT_POLICY_VERSION || !/^[0-9a-f-]{36}$/.test(visitorId)) return null;
    return {
      preferences: params.get("p") === "1",
      analytics: params.get("a") === "1",
      marketing: params.get("m") === "1",
      visitorId,
    };
  }
  return null;
}
