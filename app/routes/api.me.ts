import { api } from "~/server/api.server";
import { publicUser } from "~/server/auth.server";

export const loader = api({
  access: "user",
  async handler({ user, env }) {
    return publicUser(user, env);
  },
});
