// /classi/unisciti/:code: the link a teacher shares. Signed out → /login and back here; then the
// student sees the class and its teacher and joins with one button (a GET never changes data, so a
// stray link or image cannot enrol anyone). Joining answers an invitation to the class too. Looking a code up and
// joining count against the user's join limit (guessing codes: 429 with Retry-After).
import {
  data,
  Form,
  Link,
  type ShouldRevalidateFunctionArgs,
  useActionData,
  useLoaderData,
  useNavigation,
} from "react-router";
import { CLASS_UI as T } from "~/components/classes/texts";
import "~/styles/profile.css";
import { CLASS_TEXT, classByCode, isJoinCode, joinClass } from "~/server/classes.server";
import { dbOf, getEnv } from "~/server/context";
import { HttpError, retryAfterHeaders } from "~/server/errors.server";
import { requirePageUser } from "~/server/page-guard.server";
import { limitAction } from "~/server/security.server";
import type { Route } from "./+types/classi.unisciti";

export async function loader(args: Route.LoaderArgs) {
  const user = await requirePageUser(args);
  const code = args.params.code ?? "";
  if (!isJoinCode(code)) return data({ cls: null, error: CLASS_TEXT.badCode }, { status: 400 });
  try {
    await limitAction(getEnv(args.context), "CLASS_JOIN_LIMITER", user.id);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return data({ cls: null, error: error.message }, { status: error.status, headers: retryAfterHeaders(error) });
  }
  const cls = await classByCode(dbOf(args.context), code, user.id);
  if (!cls) return data({ cls: null, error: CLASS_TEXT.unknownCode }, { status: 404 });
  return { cls, error: null };
}

export async function action(args: Route.ActionArgs) {
  const user = await requirePageUser(args);
  const code = args.params.code ?? "";
  if (!isJoinCode(code)) return data({ joined: null, error: CLASS_TEXT.badCode }, { status: 400 });
  try {
    await limitAction(getEnv(args.context), "CLASS_JOIN_LIMITER", user.id);
    const joined = await joinClass(dbOf(args.context), user, code);
    return { joined, error: null };
  } catch (error) {
    if (error instanceof HttpError)
      return data({ joined: null, error: error.message }, { status: error.status, headers: retryAfterHeaders(error) });
    throw error;
  }
}

/** After joining, the page shows the action's answer: the code is not looked up (and counted) again. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod ? false : defaultShouldRevalidate;
}

export function meta() {
  return [{ title: "Unicum" }];
}

export default function JoinClass() {
  const { cls, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const message = result?.joined
    ? result.joined.joined
      ? T.joined(result.joined.name)
      : T.alreadyMember(result.joined.name)
    : null;
  return (
    <section className="page">
      <h1 className="page__title">{T.joinTitle}</h1>
      <div className="profile__card">
        {error || result?.error ? (
          <p className="alert alert--error" role="alert">
            {result?.error ?? error}
          </p>
        ) : null}
        {cls && !message ? (
          cls.member ? (
            <p role="status">{T.alreadyMember(cls.name)}</p>
          ) : (
            <Form method="post">
              <p>{T.joinIntro(cls.name, cls.teacher)}</p>
              <button type="submit" className="btn btn--primary" disabled={navigation.state !== "idle"}>
                {T.joinButton}
              </button>
            </Form>
          )
        ) : null}
        {message ? (
          <p className="alert" role="status">
            {message}
          </p>
        ) : null}
        <p>
          <Link to="/profilo#classi">{T.toProfile}</Link> · <Link to="/simulazioni">{T.toSimulations}</Link> ·{" "}
          <Link to="/dashboard">{T.toDashboard}</Link>
        </p>
      </div>
    </section>
  );
}
