// First-party analytics and consent proof. A page view is stored only for a visitor whose consent cookie
// says analytics were accepted; the server checks it, whatever the client sends.
import { CONSENT_POLICY_VERSION, parseConsent, type ConsentChoice } from "~/lib/consent";
import type { Db } from "./db/client.server";
import { consentRecords, pageViews } from "./db/schema";

export async function recordConsent(db: Db, choice: ConsentChoice, userId: number | null, now = Date.now()) {
  await db.insert(consentRecords).values({
    visitorId: choice.visitorId,
    userId,
    preferences: choice.preferences,
    analytics: choice.analytics,
    marketing: choice.marketing,
    policyVersion: CONSENT_POLICY_VERSION,
    at: new Date(now),
  });
}

/** Stores the page view when the request's consent cookie allows analytics; returns whether it did. */
export async function recordPageView(
  db: Db,
  request: Request,
  view: { path: string; referrer: string | null },
  userId: number | null,
  now = Date.now(),
): Promise<boolean> {
  const consent = parseConsent(request.headers.get("Cookie"));
  if (!consent?.analytics) return false;
  await db.insert(pageViews).values({
    path: view.path,
    referrer: view.referrer,
    userId,
    visitorId: consent.visitorId,
    at: new Date(now),
  });
  return true;
}
